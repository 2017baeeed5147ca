import { BellRing } from "lucide-react";
import type { SettingsActionData } from "#server/contracts/admin-settings";
import { FieldError } from "#app/components/form-messages";
import { Button } from "#app/components/ui/button";
import { Input } from "#app/components/ui/input";
import { Label } from "#app/components/ui/label";
import { InlineNotice, SettingsCard } from "./settings-card";
import { useIntentFetcher } from "./use-intent-fetcher";

/** Who gets the operational alerts (issue 27): at most one e-mail per kind per 15 minutes. */
export function AlertRecipientsForm({ current }: { current: string[] }) {
  const { fetcher, pending, inlineNotice } = useIntentFetcher<SettingsActionData>("alert-recipients");
  const error = fetcher.data?.intent === "alert-recipients" ? fetcher.data.lastResult?.error?.recipients?.[0] : undefined;
  return (
    <SettingsCard
      id="alert-recipients"
      icon={BellRing}
      title="Alerts"
      description="E-mailed when a label cannot be bought, a payment is stranded, webhook signatures fail, the outbox keeps failing, a product sells out, fulfilment falls behind or workers keep restarting. At most one e-mail per kind every 15 minutes."
    >
      <fetcher.Form method="post" className="space-y-4" noValidate>
        <input type="hidden" name="intent" value="alert-recipients" />
        <div className="space-y-2">
          <Label htmlFor="alert-recipients-input">Send alerts to</Label>
          <Input
            id="alert-recipients-input"
            name="recipients"
            type="text"
            inputMode="email"
            autoComplete="off"
            maxLength={2000}
            defaultValue={current.join(", ")}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "alert-recipients-error" : "alert-recipients-hint"}
          />
          <p id="alert-recipients-hint" className="text-sm text-muted-foreground">
            Up to 10 addresses, separated by commas. Empty: the admin address.
          </p>
          <FieldError id="alert-recipients-error" errors={error ? [error] : undefined} />
        </div>
        <InlineNotice notice={inlineNotice} />
        <div className="flex justify-end">
          <Button type="submit" disabled={pending} className="w-full sm:w-auto">
            {pending ? "Saving..." : "Update Alerts"}
          </Button>
        </div>
      </fetcher.Form>
    </SettingsCard>
  );
}
