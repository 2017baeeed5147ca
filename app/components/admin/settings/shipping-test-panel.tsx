import { ExternalLink, Truck } from "lucide-react";
import type { AccountActionData } from "#server/contracts/admin-settings";
import { InlineNotice, SettingsCard } from "./settings-card";
import { useIntentFetcher } from "./use-intent-fetcher";
import { Button } from "#app/components/ui/button";
import { formatUsd } from "#server/contracts/money";

type ShippingData = Extract<AccountActionData, { intent: "test-shipping" }>;

const PROVIDERS = {
  local: "the built-in label maker (no Shippo key is set), so it costs nothing",
  "shippo-test": "Shippo in test mode, so no postage is charged",
  "shippo-live": "Shippo with a live key, which the test refuses: it would buy real postage",
} as const;

/** docs/spec.md §2 "shipping integration test panel": buys a test label and shows what came back. */
export function ShippingTestPanel({ provider }: { provider: keyof typeof PROVIDERS }) {
  const { fetcher, result, pending, inlineNotice } = useIntentFetcher<ShippingData>("test-shipping");
  const test = pending ? null : result?.result;
  return (
    <SettingsCard
      id="shipping-test"
      icon={Truck}
      title="Shipping Integration Test"
      description={`Creates a label for a 1 lb test parcel to a fixed San Francisco address through ${PROVIDERS[provider]}.`}
    >
      <fetcher.Form method="post">
        <input type="hidden" name="intent" value="test-shipping" />
        <Button type="submit" variant="outline" disabled={pending} className="w-full sm:w-auto">
          <Truck aria-hidden />
          {pending ? "Testing..." : "Test Shipping Label"}
        </Button>
        {inlineNotice ? (
          <div className="mt-4">
            <InlineNotice notice={inlineNotice} />
          </div>
        ) : null}
        {/* Always present, so the result is read out when it arrives. */}
        <div aria-live="polite">
          {test ? (
            <div className="mt-4 space-y-4 rounded-md border border-success/40 bg-success/5 p-4" data-testid="shipping-test-result">
              <p className="text-sm">{test.message}</p>
              <dl className="grid grid-cols-2 gap-x-4 gap-y-3 text-sm">
                <div className="col-span-2 min-w-0 sm:col-span-1">
                  <dt className="text-xs tracking-wider text-muted-foreground uppercase">Tracking number</dt>
                  <dd className="mt-1 font-mono break-all">{test.details.trackingNumber || "—"}</dd>
                </div>
                <div className="min-w-0">
                  <dt className="text-xs tracking-wider text-muted-foreground uppercase">Carrier</dt>
                  <dd className="mt-1">{test.details.carrier}</dd>
                </div>
                <div>
                  <dt className="text-xs tracking-wider text-muted-foreground uppercase">Cost</dt>
                  <dd className="mt-1 tabular-nums">{formatUsd(test.details.cost)}</dd>
                </div>
              </dl>
              {test.details.labelUrl ? (
                <Button asChild variant="link" size={null} className="h-auto px-0 text-sm whitespace-nowrap">
                  <a href={test.details.labelUrl} target="_blank" rel="noreferrer">
                    Open the label
                    <ExternalLink aria-hidden className="size-3.5" />
                  </a>
                </Button>
              ) : null}
            </div>
          ) : null}
        </div>
      </fetcher.Form>
    </SettingsCard>
  );
}
