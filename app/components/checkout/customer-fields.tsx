import { Input } from "#app/components/ui/input";
import { Field } from "#app/components/field";
import { cn } from "#app/lib/utils";
import type { Country } from "#server/contracts/checkout-page";
import { CHECKOUT_MESSAGES } from "#server/contracts/checkout-messages";
import { normalizeState, type CheckoutValues } from "#server/contracts/checkout-form";

type Errors = Record<string, string[] | undefined>;

/** Field messages: the spec's generic "missing" sentence reads as "Required" beside a field. */
function messageOf(errors: Errors, name: string): string | undefined {
  const message = errors[name]?.[0];
  return message === CHECKOUT_MESSAGES.missing ? "Required" : message;
}

export const selectClass = cn(
  "checkout-select flex h-11 w-full appearance-none rounded-md border border-input bg-background/60 px-3 pr-10 text-base text-foreground md:text-sm",
  "transition-[border-color,box-shadow] duration-150 outline-none hover:border-foreground/40 focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40",
  "disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive",
);

/** The one Field, for the checkout's own state: ids from the name, aria props for the control. */
export function CheckoutField({
  name,
  label,
  hint,
  errors,
  className,
  children,
}: {
  name: string;
  label: string;
  hint?: string;
  errors: Errors;
  className?: string;
  children: (props: { id: string; "aria-invalid": boolean | undefined; "aria-describedby": string | undefined }) => React.ReactNode;
}) {
  const message = messageOf(errors, name);
  const id = `checkout-${name}`;
  const errorId = `${id}-error`;
  const labelled = hint ? (
    <>
      {label}
      <span className="font-normal text-muted-foreground">{hint}</span>
    </>
  ) : (
    label
  );
  return (
    <Field field={{ id, errorId, errors: message ? [message] : undefined }} label={labelled} className={className}>
      {children({ id, "aria-invalid": message ? true : undefined, "aria-describedby": message ? errorId : undefined })}
    </Field>
  );
}

interface FieldsProps {
  values: CheckoutValues;
  errors: Errors;
  onChange: (name: keyof CheckoutValues, value: string) => void;
}

export function SectionTitle({
  id,
  step,
  focusable,
  children,
}: {
  id: string;
  step?: number;
  /** The page can put the focus on it (out of the Tab order). */
  focusable?: boolean;
  children: React.ReactNode;
}) {
  return (
    <h2 id={id} tabIndex={focusable ? -1 : undefined} className="flex items-center gap-3 font-display text-3xl tracking-wide">
      {step ? (
        <span
          aria-hidden="true"
          className="flex size-7 items-center justify-center rounded-full border border-border font-sans text-xs font-semibold tabular-nums text-muted-foreground"
        >
          {step}
        </span>
      ) : null}
      {children}
    </h2>
  );
}

/** Contact: email, full name, phone (optional). */
export function ContactFields({ values, errors, onChange }: FieldsProps) {
  return (
    <section aria-labelledby="contact-title" className="space-y-5">
      <SectionTitle id="contact-title" step={1}>
        Customer Information
      </SectionTitle>
      <div className="grid gap-4 sm:grid-cols-2">
        <CheckoutField name="email" label="Email" errors={errors} className="sm:col-span-2">
          {(props) => (
            <Input
              {...props}
              name="email"
              type="email"
              autoComplete="email"
              required
              value={values.email}
              onChange={(e) => onChange("email", e.target.value)}
            />
          )}
        </CheckoutField>
        <CheckoutField name="name" label="Full name" errors={errors}>
          {(props) => (
            <Input
              {...props}
              name="name"
              autoComplete="name"
              required
              value={values.name}
              onChange={(e) => onChange("name", e.target.value)}
            />
          )}
        </CheckoutField>
        <CheckoutField name="phone" label="Phone" hint="(optional)" errors={errors}>
          {(props) => (
            <Input
              {...props}
              name="phone"
              type="tel"
              autoComplete="tel"
              value={values.phone}
              onChange={(e) => onChange("phone", e.target.value)}
            />
          )}
        </CheckoutField>
      </div>
    </section>
  );
}

/**
 * Shipping Address: country (US first and default), street, city, state (US only, two upper-case
 * letters) and ZIP or postal code. Without JavaScript the state field cannot follow the country,
 * so it stays, marked "US only", and the server ignores it elsewhere.
 */
export function AddressFields({
  values,
  errors,
  onChange,
  countries,
  hydrated,
}: FieldsProps & { countries: Country[]; hydrated: boolean }) {
  const showState = values.country === "US" || !hydrated;
  return (
    <section aria-labelledby="address-title" className="space-y-5">
      <SectionTitle id="address-title" step={2}>
        Shipping Address
      </SectionTitle>
      <div className="grid grid-cols-6 gap-4">
        <CheckoutField name="country" label="Country" errors={errors} className="col-span-6">
          {(props) => (
            <select
              {...props}
              name="country"
              autoComplete="country"
              className={selectClass}
              value={values.country}
              onChange={(e) => onChange("country", e.target.value)}
            >
              {countries.map((country) => (
                <option key={country.code} value={country.code}>
                  {country.name}
                </option>
              ))}
            </select>
          )}
        </CheckoutField>
        <CheckoutField name="street" label="Street address" errors={errors} className="col-span-6">
          {(props) => (
            <Input
              {...props}
              name="street"
              autoComplete="address-line1"
              required
              value={values.street}
              onChange={(e) => onChange("street", e.target.value)}
            />
          )}
        </CheckoutField>
        <CheckoutField
          name="city"
          label="City"
          errors={errors}
          className={showState ? "col-span-6 sm:col-span-2" : "col-span-6 sm:col-span-4"}
        >
          {(props) => (
            <Input
              {...props}
              name="city"
              autoComplete="address-level2"
              required
              value={values.city}
              onChange={(e) => onChange("city", e.target.value)}
            />
          )}
        </CheckoutField>
        {showState ? (
          <CheckoutField
            name="state"
            label="State"
            // A hint beside the label, never a placeholder: a grey "NY" in the box read as filled in.
            hint={hydrated ? "(e.g. NY)" : "(US only, e.g. NY)"}
            errors={errors}
            className="col-span-3 sm:col-span-2"
          >
            {(props) => (
              <Input
                {...props}
                name="state"
                autoComplete="address-level1"
                maxLength={2}
                className="uppercase"
                value={values.state}
                onChange={(e) => onChange("state", normalizeState(e.target.value))}
              />
            )}
          </CheckoutField>
        ) : null}
        <CheckoutField
          name="zipCode"
          label="ZIP / Postal code"
          errors={errors}
          className={showState ? "col-span-3 sm:col-span-2" : "col-span-6 sm:col-span-2"}
        >
          {(props) => (
            <Input
              {...props}
              name="zipCode"
              autoComplete="postal-code"
              required
              value={values.zipCode}
              onChange={(e) => onChange("zipCode", e.target.value)}
            />
          )}
        </CheckoutField>
      </div>
    </section>
  );
}
