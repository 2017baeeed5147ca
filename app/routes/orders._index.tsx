import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { MailCheck } from "lucide-react";
import { Field } from "#app/components/field";
import { FormAlert } from "#app/components/form-messages";
import { Button } from "#app/components/ui/button";
import { Input } from "#app/components/ui/input";
import { pageTitle } from "#app/lib/page-title";
import { ORDER_PAGE_MESSAGES } from "#server/contracts/order-page";
import { orderLookupAction } from "#server/http/doors/order-page-door";

export const action = (args: ActionFunctionArgs) => orderLookupAction(args);
export const meta: MetaFunction = ({ matches }) => [
  pageTitle(ORDER_PAGE_MESSAGES.findTitle, matches),
  { name: "robots", content: "noindex" },
];

/** /orders: "Find my order" (issue 25). The link goes by e-mail to the order's own address. */
export default function FindMyOrder() {
  const result = useActionData<typeof action>();
  const sending = useNavigation().state === "submitting";
  const field = (name: "email" | "orderNumber") => {
    const errors = sending ? undefined : result?.errors[name];
    const id = `find-order-${name}`;
    return {
      field: { id, errorId: `${id}-error`, errors },
      control: {
        id,
        name,
        defaultValue: result?.values[name] ?? "",
        "aria-invalid": errors?.length ? true : undefined,
        "aria-describedby": errors?.length ? `${id}-error` : undefined,
      },
    };
  };
  const email = field("email");
  const orderNumber = field("orderNumber");
  return (
    <div className="mx-auto w-full max-w-lg flex-1 px-4 py-12 sm:px-6 md:py-20">
      <h1 className="font-display text-5xl tracking-wide sm:text-6xl">{ORDER_PAGE_MESSAGES.findTitle}</h1>
      <p className="mt-3 text-muted-foreground">
        Enter the e-mail address you ordered with and your order number (it is in your confirmation e-mail). We'll e-mail you a link to your
        order.
      </p>
      {result?.sent ? (
        <p role="status" className="mt-8 flex items-start gap-3 rounded-lg border border-border bg-card p-4" data-testid="lookup-sent">
          <MailCheck className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
          {result.sent}
        </p>
      ) : null}
      <Form method="post" action="/orders" noValidate className="mt-8 grid gap-5" key={result?.sent ? "sent" : "form"}>
        <FormAlert id="find-order-error" title="Error" errors={result?.refusal ? [result.refusal] : undefined} />
        <Field label="Email" field={email.field}>
          <Input {...email.control} type="email" autoComplete="email" required />
        </Field>
        <Field label="Order number" field={orderNumber.field}>
          <Input {...orderNumber.control} type="text" autoCapitalize="characters" spellCheck={false} required />
        </Field>
        <Button type="submit" size="lg" disabled={sending} data-testid="find-order">
          {sending ? "Sending..." : "E-mail me the link"}
        </Button>
      </Form>
    </div>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";
