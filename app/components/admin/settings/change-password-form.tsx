import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { KeyRound } from "lucide-react";
import type { AccountActionData } from "#server/contracts/admin-settings";
import { InlineNotice, SettingsCard } from "./settings-card";
import { Field } from "#app/components/field";
import { useIntentFetcher } from "./use-intent-fetcher";
import { changePasswordSchema } from "#server/contracts/admin-settings";
import { Button } from "#app/components/ui/button";
import { Input } from "#app/components/ui/input";

type PasswordData = Extract<AccountActionData, { intent: "change-password" }>;

/**
 * docs/spec.md §5 "Change password": current, new (6 or more) and the confirmation, with the spec's
 * messages (the mismatch on the confirmation field). Checked as the admin types after the first
 * attempt, and again on the server, which also checks the current password.
 */
export function ChangePasswordForm() {
  const { fetcher, result, pending, inlineNotice } = useIntentFetcher<PasswordData>("change-password");
  const [form, fields] = useForm({
    id: "change-password-form",
    lastResult: pending ? undefined : result?.lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: changePasswordSchema }),
  });
  const inputs = [
    { field: fields.currentPassword, label: "Current password", autoComplete: "current-password" },
    { field: fields.newPassword, label: "New password", autoComplete: "new-password", hint: "At least 6 characters." },
    { field: fields.confirmPassword, label: "Confirm new password", autoComplete: "new-password" },
  ] as const;

  return (
    <SettingsCard
      id="change-password"
      icon={KeyRound}
      title="Change Password"
      description="Changing it signs you out everywhere else; this browser stays signed in."
    >
      <fetcher.Form method="post" {...getFormProps(form)} className="grid gap-2">
        <input type="hidden" name="intent" value="change-password" />
        {inputs.map(({ field, label, autoComplete, ...rest }) => {
          const hint = "hint" in rest ? rest.hint : undefined;
          const hintId = field.descriptionId;
          return (
            <Field key={field.name} label={label} field={field} hint={hint}>
              <Input
                {...getInputProps(field, { type: "password" })}
                key={field.key}
                autoComplete={autoComplete}
                aria-describedby={[hint ? hintId : null, field.errorId].filter(Boolean).join(" ")}
              />
            </Field>
          );
        })}
        <InlineNotice notice={inlineNotice} />
        <div className="mt-2 flex justify-end">
          <Button type="submit" disabled={pending} className="w-full sm:w-auto">
            {pending ? "Updating..." : "Update Password"}
          </Button>
        </div>
      </fetcher.Form>
    </SettingsCard>
  );
}
