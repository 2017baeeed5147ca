import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Lock } from "lucide-react";
import { loginSchema, type LoginActionData, type LoginLoaderData } from "#server/contracts/auth";
import { Button } from "./ui/button";
import { Input } from "./ui/input";
import { Label } from "./ui/label";
import { FieldError, FormAlert } from "./form-messages";
import { useNoticeToast } from "#app/lib/use-notice-toast";

/** "Admin Login": the same screen at /admin/login and /auth. Works without JavaScript. */
export function LoginScreen() {
  const { launchesAt, launched, brand, signInNotKept, redirectTo } = useLoaderData<LoginLoaderData>();
  const lastResult = useActionData<LoginActionData>();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";
  const loginError = lastResult?.error?.[""]?.[0];
  useNoticeToast(loginError ? { kind: "error", title: "Login failed", description: loginError } : null, lastResult);
  const [form, fields] = useForm({
    lastResult,
    constraint: { username: { required: true }, password: { required: true } },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
  });

  return (
    <div className="grid flex-1 md:grid-cols-2">
      <aside className="login-panel relative hidden overflow-hidden md:flex md:flex-col md:justify-end">
        <div className="relative z-10 p-10">
          <p className="font-display text-5xl tracking-wide">{brand}</p>
          <p className="mt-4 max-w-sm text-lg text-muted-foreground">
            {launched
              ? "The drop is live. Keep the store stocked and the orders moving."
              : launchesAt
                ? `The countdown is running: the next drop launches ${launchesAt}.`
                : "The countdown to the next drop is being set."}
          </p>
        </div>
      </aside>
      <section className="flex items-center justify-center px-4 py-16">
        <div className="w-full max-w-sm">
          <div className="mb-8 flex items-center gap-3">
            <span className="flex size-10 items-center justify-center rounded-full border border-border">
              <Lock aria-hidden className="size-4" />
            </span>
            <h1 className="font-display text-4xl tracking-wide">Admin Login</h1>
          </div>
          <Form method="post" {...getFormProps(form)} className="space-y-5">
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <FormAlert title="Login failed" id={form.errorId} errors={form.errors} />
            {/* The password was right but the browser refused the session cookie (decision 0011). */}
            {signInNotKept && !form.errors?.length ? (
              <FormAlert title="Signed in, but not kept" id="sign-in-not-kept" errors={[signInNotKept]} />
            ) : null}
            <div className="space-y-2">
              <Label htmlFor={fields.username.id}>Username</Label>
              <Input
                {...getInputProps(fields.username, { type: "text" })}
                autoComplete="username"
                autoCapitalize="none"
                spellCheck={false}
                autoFocus
              />
              <FieldError id={fields.username.errorId} errors={fields.username.errors} />
            </div>
            <div className="space-y-2">
              <Label htmlFor={fields.password.id}>Password</Label>
              <Input {...getInputProps(fields.password, { type: "password" })} autoComplete="current-password" />
              <FieldError id={fields.password.errorId} errors={fields.password.errors} />
            </div>
            <Button type="submit" className="w-full" disabled={pending}>
              {pending ? "Signing in..." : "Sign in"}
            </Button>
          </Form>
        </div>
      </section>
    </div>
  );
}
