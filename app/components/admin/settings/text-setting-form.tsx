import { Heading, Quote, Type } from "lucide-react";
import type { SettingsActionData } from "#server/contracts/admin-settings";
import { InlineNotice, SettingsCard, Textarea } from "./settings-card";
import { Field } from "#app/components/field";
import { useIntentFetcher } from "./use-intent-fetcher";
import { TEXT_SETTINGS, type TextSettingKey } from "#server/contracts/admin-settings";
import { Button } from "#app/components/ui/button";
import { Input } from "#app/components/ui/input";

const COPY = {
  countdown_text: {
    icon: Heading,
    description: "The heading over the countdown on /countdown. HTML is allowed, e.g. <br> for a new line; scripts and styles are removed.",
    field: "Text (HTML)",
  },
  homepage_tagline: { icon: Quote, description: "The large line on the landing page.", field: "Tagline" },
  homepage_subtitle: { icon: Type, description: "The line under the tagline on the landing page.", field: "Subtitle" },
} as const;

/**
 * Countdown Text, Homepage Tagline and Homepage Subtitle. Validation is the server's (it also
 * sanitises the HTML), so an empty field gets the spec's "Text Required" toast, not only a hint.
 */
export function TextSettingForm({ settingKey, current }: { settingKey: TextSettingKey; current: string }) {
  const { fetcher, result, pending, inlineNotice } = useIntentFetcher<SettingsActionData>(settingKey);
  const setting = TEXT_SETTINGS[settingKey];
  const copy = COPY[settingKey];
  const html = settingKey === "countdown_text";
  // No client-side form state: the field starts from the saved value and is rebuilt when a save
  // changes it (so it shows the stored, sanitised text); a refused value is kept for correcting.
  const failed = result?.lastResult.status === "error" ? result.lastResult : undefined;
  const submitted = failed?.initialValue?.text;
  const errors = failed?.error?.text ?? undefined;
  const id = `${settingKey}-field`;
  const errorId = `${id}-error`;
  const control = {
    id,
    name: "text",
    defaultValue: typeof submitted === "string" ? submitted : current,
    maxLength: setting.max,
    "aria-invalid": errors?.length ? true : undefined,
    "aria-describedby": errorId,
  };

  return (
    <SettingsCard id={settingKey.replace("_", "-")} icon={copy.icon} title={setting.label} description={copy.description}>
      <fetcher.Form method="post" className="space-y-1">
        <input type="hidden" name="intent" value={settingKey} />
        <Field label={copy.field} field={{ id, errorId, errors }}>
          {html ? (
            <Textarea {...control} key={current} rows={3} spellCheck={false} className="font-mono text-sm" />
          ) : (
            <Input {...control} key={current} type="text" />
          )}
        </Field>
        {html ? (
          <div className="mb-4 rounded-md border border-border bg-background/40 px-4 py-3">
            <p className="text-xs tracking-wider text-muted-foreground uppercase">Live now</p>
            {/* Sanitised by the server when saved and again when read: safe to render as HTML. */}
            <div
              className="countdown-text-preview mt-1 text-sm font-semibold tracking-[0.2em] uppercase"
              dangerouslySetInnerHTML={{ __html: current }}
            />
          </div>
        ) : null}
        <InlineNotice notice={inlineNotice} />
        <div className="flex justify-end">
          <Button type="submit" disabled={pending} className="w-full sm:w-auto">
            {pending ? "Saving..." : `Update ${setting.label.replace("Homepage ", "")}`}
          </Button>
        </div>
      </fetcher.Form>
    </SettingsCard>
  );
}
