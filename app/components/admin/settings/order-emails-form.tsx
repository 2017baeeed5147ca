import { Mail } from "lucide-react";
import type { SettingsActionData } from "#server/contracts/admin-settings";
import { ORDER_EMAIL_KINDS, ORDER_EMAIL_LABELS, type OrderEmailKind } from "#server/contracts/order-emails";
import { Button } from "#app/components/ui/button";
import { InlineNotice, SettingsCard } from "./settings-card";
import { useIntentFetcher } from "./use-intent-fetcher";

/** Which of the buyer's e-mails on the way are sent (issue 25); each goes once per order. */
export function OrderEmailsForm({ current }: { current: Record<OrderEmailKind, boolean> }) {
  const { fetcher, pending, inlineNotice } = useIntentFetcher<SettingsActionData>("order-emails");
  return (
    <SettingsCard
      id="order-emails"
      icon={Mail}
      title="Order E-mails"
      description="E-mails to the buyer as the order moves on. Each links to the buyer's order page and is sent once per order."
    >
      <fetcher.Form method="post" className="space-y-4">
        <input type="hidden" name="intent" value="order-emails" />
        <fieldset className="space-y-3">
          <legend className="sr-only">Send these e-mails</legend>
          {ORDER_EMAIL_KINDS.map((kind) => (
            <label key={`${kind}-${String(current[kind])}`} className="flex items-center gap-3 text-sm">
              <input type="checkbox" name={kind} value="on" defaultChecked={current[kind]} className="size-4 accent-foreground" />
              {ORDER_EMAIL_LABELS[kind]}
            </label>
          ))}
        </fieldset>
        <InlineNotice notice={inlineNotice} />
        <div className="flex justify-end">
          <Button type="submit" disabled={pending} className="w-full sm:w-auto">
            {pending ? "Saving..." : "Update Order E-mails"}
          </Button>
        </div>
      </fetcher.Form>
    </SettingsCard>
  );
}
