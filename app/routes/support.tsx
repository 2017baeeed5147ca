import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { CheckCircle2, Clock, Mail } from "lucide-react";
import { useEffect, useRef } from "react";
import { Field } from "#app/components/field";
import { FormAlert } from "#app/components/form-messages";
import { Button } from "#app/components/ui/button";
import { Input } from "#app/components/ui/input";
import { useNoticeToast } from "#app/lib/use-notice-toast";
import type { loader as rootLoader } from "#app/root";
import { SUPPORT_FIELDS, SUPPORT_TYPES, type SupportField } from "#server/contracts/support-types";
import { supportAction, supportLoader } from "#server/http/doors/support-door";
import { pageTitle } from "#app/lib/page-title";

export const meta: MetaFunction = ({ matches }) => [pageTitle("Get Support", matches)];
export const loader = (args: LoaderFunctionArgs) => supportLoader(args);
// A page filled from its link is the visitor's own: its loader says so (private, no-store).
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;
export const action = (args: ActionFunctionArgs) => supportAction(args);

const COMMON_ISSUES = [
  "Order status and tracking",
  "Sizing and product information",
  "Returns and exchanges",
  "Shipping and delivery",
  "Payment and billing",
  "Product availability",
];

const fieldClass =
  "w-full rounded-md border border-input bg-background px-3 py-2 text-base md:text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-[invalid=true]:border-destructive";

export default function SupportPage() {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const supportEmail = root?.brand.supportEmail ?? "";
  const result = useActionData<typeof action>();
  const prefill = useLoaderData<typeof loader>()?.orderNumber ?? null;
  useNoticeToast(result?.notice, result);
  const sent = Boolean(result?.sent);
  // The button pressed (Send, or Send Another Message) goes away with the screen it was on: the
  // focus goes to what replaces it, not to the page's body. Not on the first render (a page load).
  const shown = useRef(sent);
  useEffect(() => {
    if (shown.current === sent) return;
    shown.current = sent;
    document.getElementById(sent ? SENT_TITLE_ID : `${FORM_ID}-name`)?.focus();
  }, [sent]);

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-12 sm:px-6 md:py-20">
      <header className="max-w-2xl">
        <h1 className="font-display text-5xl tracking-wide sm:text-7xl">Get Support</h1>
        <p className="mt-3 text-muted-foreground">Questions about a drop, an order or sizing? Write to us and a real person answers.</p>
      </header>
      <div className="mt-12 grid gap-10 lg:grid-cols-[1fr_1.4fr]">
        <aside className="space-y-6">
          <section className="rounded-xl border border-border bg-card p-6" aria-labelledby="contact-heading">
            <h2 id="contact-heading" className="font-display text-2xl tracking-wide">
              Contact
            </h2>
            <ul className="mt-4 space-y-4 text-sm">
              <li className="flex gap-3">
                <Mail aria-hidden className="mt-0.5 size-4 text-muted-foreground" />
                <span>
                  Support e-mail:{" "}
                  <a className="underline underline-offset-4" href={`mailto:${supportEmail}`}>
                    {supportEmail}
                  </a>
                </span>
              </li>
              <li className="flex gap-3">
                <CheckCircle2 aria-hidden className="mt-0.5 size-4 text-muted-foreground" />
                <span>We respond within 24 hours.</span>
              </li>
              <li className="flex gap-3">
                <Clock aria-hidden className="mt-0.5 size-4 text-muted-foreground" />
                <span>Hours: Monday-Friday 9 AM-6 PM EST</span>
              </li>
            </ul>
          </section>
          <section className="rounded-xl border border-border bg-card p-6" aria-labelledby="issues-heading">
            <h2 id="issues-heading" className="font-display text-2xl tracking-wide">
              Common Issues
            </h2>
            <ul className="mt-4 space-y-2 text-sm text-muted-foreground">
              {COMMON_ISSUES.map((issue) => (
                <li key={issue} className="flex gap-2">
                  <span aria-hidden>—</span>
                  {issue}
                </li>
              ))}
            </ul>
          </section>
        </aside>
        {result?.sent ? <MessageSent /> : <SupportForm key={prefill ?? ""} prefill={prefill} />}
      </div>
    </div>
  );
}

function MessageSent() {
  return (
    <section className="flex flex-col items-start justify-center rounded-xl border border-border bg-card p-8" role="status">
      <CheckCircle2 aria-hidden className="size-10 text-success" />
      <h2 id={SENT_TITLE_ID} tabIndex={-1} className="mt-4 font-display text-4xl tracking-wide outline-none">
        Message Sent!
      </h2>
      <p className="mt-2 text-muted-foreground">Thank you for reaching out. We'll get back to you within 24 hours.</p>
      <Button asChild variant="outline" className="mt-6">
        {/* A plain link back to the empty form: works the same with and without JavaScript. */}
        <Link to="/support" reloadDocument={false}>
          Send Another Message
        </Link>
      </Button>
    </section>
  );
}

const FORM_ID = "support-form";
const SENT_TITLE_ID = "message-sent-title";

/**
 * The form is checked where the rule lives, on the server (supportSchema): its answer carries the
 * spec's messages, shown under the fields with and without JavaScript. No schema library in the
 * browser (decision 0029); the browser's own check is off so the visitor reads those messages.
 */
function SupportForm({ prefill }: { prefill: string | null }) {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formAction === "/support";
  const formRef = useRef<HTMLFormElement>(null);
  // Cleared while a new answer is on its way, as they would be by a fresh check.
  const errors = sending ? undefined : result?.lastResult.error;
  // Without JavaScript the answer is a new page: what was typed comes back filled in.
  // The order page's "Need help with this order?" names the order (/support?orderNumber=…): its
  // number is filled in by the server, with or without JavaScript (decision 0051).
  const typed = result?.lastResult.initialValue ?? (prefill ? { orderNumber: prefill, supportType: "order" } : {});
  const meta = (name: SupportField) => {
    const id = `${FORM_ID}-${name}`;
    const fieldErrors = errors?.[name] ?? undefined;
    const invalid = Boolean(fieldErrors?.length);
    return {
      field: { id, errorId: `${id}-error`, errors: fieldErrors },
      control: {
        id,
        name,
        defaultValue: typeof typed[name] === "string" ? typed[name] : undefined,
        "aria-invalid": invalid || undefined,
        "aria-describedby": invalid ? `${id}-error` : undefined,
      },
    };
  };
  const failure = result?.notice?.kind === "error" ? result.notice : null;

  // With JavaScript the answer comes in place: the first field it refuses gets the focus.
  useEffect(() => {
    const first = SUPPORT_FIELDS.find((name) => result?.lastResult.error?.[name]?.length);
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  }, [result]);

  const name = meta("name");
  const email = meta("email");
  const orderNumber = meta("orderNumber");
  const supportType = meta("supportType");
  const subject = meta("subject");
  const message = meta("message");

  return (
    <section className="rounded-xl border border-border bg-card p-6 sm:p-8" aria-labelledby="form-heading">
      <h2 id="form-heading" className="font-display text-3xl tracking-wide">
        Send us a message
      </h2>
      <Form ref={formRef} id={FORM_ID} method="post" action="/support" noValidate className="mt-6 grid gap-5 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <FormAlert id={`${FORM_ID}-form-error`} title={failure?.title ?? ""} errors={failure ? [failure.description] : undefined} />
        </div>
        <Field label="Name" field={name.field}>
          <Input {...name.control} type="text" autoComplete="name" />
        </Field>
        <Field label="Email" field={email.field}>
          <Input {...email.control} type="email" autoComplete="email" />
        </Field>
        <Field label="Order number (optional)" field={orderNumber.field}>
          <Input {...orderNumber.control} type="text" />
        </Field>
        <Field label="What is it about?" field={supportType.field}>
          <select {...supportType.control} defaultValue={supportType.control.defaultValue ?? "other"} className={`${fieldClass} h-11`}>
            {SUPPORT_TYPES.map((type) => (
              <option key={type.value} value={type.value}>
                {type.label}
              </option>
            ))}
          </select>
        </Field>
        <div className="sm:col-span-2">
          <Field label="Subject" field={subject.field}>
            <Input {...subject.control} type="text" />
          </Field>
        </div>
        <div className="sm:col-span-2">
          <Field label="Message" field={message.field}>
            <textarea {...message.control} rows={6} className={fieldClass} />
          </Field>
        </div>
        <div className="sm:col-span-2">
          <Button type="submit" disabled={sending} className="w-full sm:w-auto">
            {sending ? "Sending..." : "Send Message"}
          </Button>
        </div>
      </Form>
    </section>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";
