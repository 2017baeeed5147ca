import { useRevalidator } from "@remix-run/react";
import { CircleAlert } from "lucide-react";
import { SETTINGS_LOAD_FAILED } from "#server/contracts/admin-settings";
import { Button } from "#app/components/ui/button";

/** docs/spec.md §8: settings that could not be read show this alert instead of empty forms. */
export function SettingsLoadError() {
  const revalidator = useRevalidator();
  return (
    <div
      role="alert"
      className="flex flex-wrap items-start justify-between gap-4 rounded-lg border border-destructive/50 bg-destructive/10 p-4"
    >
      <div className="flex gap-3">
        <CircleAlert aria-hidden className="mt-0.5 size-5 shrink-0 text-destructive" />
        <div>
          <p className="font-medium">{SETTINGS_LOAD_FAILED.title}</p>
          <p className="text-sm text-muted-foreground">{SETTINGS_LOAD_FAILED.description}</p>
        </div>
      </div>
      <Button size="sm" variant="outline" disabled={revalidator.state !== "idle"} onClick={() => revalidator.revalidate()}>
        {revalidator.state !== "idle" ? "Loading..." : "Try Again"}
      </Button>
    </div>
  );
}
