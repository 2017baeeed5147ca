import { useActionData, useFetcher, useFormAction } from "@remix-run/react";
import { CircleAlert, CircleCheck } from "lucide-react";
import { useEffect, useRef } from "react";
import { HONEYPOT_FIELD } from "#server/contracts/honeypot";
import type { SubscribeActionData } from "#server/contracts/subscribe";
import { FieldError } from "./form-messages";
import { TermsDialog } from "./terms-dialog";
import { Button } from "./ui/button";
import { Input } from "./ui/input";
import { Label } from "./ui/label";
import { useNoticeToast } from "#app/lib/use-notice-toast";
import { cn } from "#app/lib/utils";

const CARD_ID = "join";

function isSubscribeData(value: unknown): value is SubscribeActionData {
  return typeof value === "object" && value !== null && (value as { intent?: unknown }).intent === "subscribe";
}

/**
 * "JOIN THE LEGACY": the early-access sign-up. It posts to the page it is on (whose action is
 * subscribeAction): with JavaScript through a fetcher, in place, with "Signing Up..." and a toast;
 * without it as an ordinary form POST whose answer the page renders. Either way the notice is
 * also written into the card, so it is read out and seen without JavaScript.
 */
export function SignupCard({
  brand,
  supportEmail,
  serverToday,
  className,
}: {
  brand: string;
  supportEmail: string;
  /** Today in the store's time zone, for the terms' "Last updated" before hydration. */
  serverToday: string;
  className?: string;
}) {
  const fetcher = useFetcher<SubscribeActionData>();
  const pageResult = useActionData<unknown>();
  const result = fetcher.data ?? (isSubscribeData(pageResult) ? pageResult : undefined);
  const pending = fetcher.state !== "idle";
  const formAction = useFormAction();
  useNoticeToast(result?.notice, result);

  // One field, checked where the rule lives: on the server (subscribeSchema), which answers with the
  // spec's message. No schema library on the landing page (decision 0029); the browser's own check
  // is off so that message, not the browser's, is what the visitor reads.
  const formRef = useRef<HTMLFormElement>(null);
  const emailErrors = pending ? undefined : result?.lastResult.error?.email;
  const succeeded = result?.notice?.kind === "success";
  useEffect(() => {
    if (succeeded) formRef.current?.reset();
  }, [result, succeeded]);
  const notice = pending ? null : result?.notice;
  const formId = "subscribe";
  const emailId = `${formId}-email`;
  const errorId = `${emailId}-error`;

  return (
    <section
      id={CARD_ID}
      aria-labelledby="signup-title"
      className={cn("signup-card relative scroll-mt-24 rounded-xl border border-foreground/15 shadow-2xl", className)}
    >
      {/* The frosted glass is a layer of its own, under the content: backdrop-filter (or a stacking
          context) on the card itself would trap the no-JavaScript terms panel inside the card. */}
      <div aria-hidden="true" className="absolute inset-0 rounded-xl bg-background/55 backdrop-blur-xl" />
      <div className="relative p-6 sm:p-8">
        <p className="text-[11px] font-semibold tracking-[0.32em] text-muted-foreground uppercase">Early access</p>
        <h2 id="signup-title" className="mt-2 font-display text-[2.75rem] leading-none tracking-[0.04em]">
          JOIN THE LEGACY
        </h2>
        <p className="mt-3 text-sm text-muted-foreground">
          Be first in line when the {brand} drop goes live. One e-mail before the public hears, nothing more.
        </p>

        {/* Without JavaScript the answer is a new page: the fragment scrolls it back to this card. */}
        <fetcher.Form
          ref={formRef}
          id={formId}
          method="post"
          action={`${formAction}#${CARD_ID}`}
          noValidate
          className="mt-6 space-y-3"
          // Not `disabled` while posting: a disabled button drops the keyboard focus to the page's body.
          onSubmit={(event) => {
            if (pending) event.preventDefault();
          }}
        >
          {/* People never see or reach this field; form-filling bots fill it in. */}
          <div className="honeypot" aria-hidden="true">
            <label htmlFor={`${formId}-${HONEYPOT_FIELD}`}>Leave this field empty</label>
            <input id={`${formId}-${HONEYPOT_FIELD}`} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
          </div>
          <Label htmlFor={emailId} className="sr-only">
            Email
          </Label>
          <div className="flex flex-col gap-3 sm:flex-row">
            <Input
              id={emailId}
              name="email"
              type="email"
              // Without JavaScript the answer is a new page: an address refused comes back filled in.
              defaultValue={succeeded ? "" : String(result?.lastResult.initialValue?.email ?? "")}
              required
              aria-invalid={emailErrors?.length ? true : undefined}
              aria-describedby={emailErrors?.length ? errorId : undefined}
              placeholder="you@example.com"
              autoComplete="email"
              inputMode="email"
              spellCheck={false}
              className="h-12 bg-background/70 sm:flex-1"
            />
            <Button type="submit" size="lg" aria-disabled={pending || undefined} className="h-12 shrink-0 sm:w-36">
              {pending ? "Signing Up..." : "Sign Up"}
            </Button>
          </div>
          <FieldError id={errorId} errors={emailErrors ?? undefined} />
        </fetcher.Form>

        {notice ? (
          <div
            role={notice.kind === "error" ? "alert" : "status"}
            data-kind={notice.kind}
            className={cn(
              "-mt-2 mb-1 flex gap-3 rounded-md border p-3 text-sm",
              notice.kind === "error" ? "border-destructive/50 bg-destructive/10" : "border-success/40 bg-success/10",
            )}
          >
            {notice.kind === "error" ? (
              <CircleAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-destructive" />
            ) : (
              <CircleCheck aria-hidden className="mt-0.5 size-4 shrink-0 text-success" />
            )}
            <div>
              <p className="font-medium">{notice.title}</p>
              <p className="text-muted-foreground">{notice.description}</p>
            </div>
          </div>
        ) : null}

        {/* A <div>, not a <p>: without JavaScript the terms panel renders in here, and a <section>
          inside a <p> would be split apart by the HTML parser (and break hydration). */}
        <div className="mt-1 text-xs text-muted-foreground">
          By signing up you agree to our{" "}
          <TermsDialog brand={brand} supportEmail={supportEmail} serverToday={serverToday} returnTo={CARD_ID} />.
        </div>
      </div>
    </section>
  );
}
