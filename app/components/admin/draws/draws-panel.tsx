import { Form, Link, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import type { AdminDrawsActionData, DrawableProduct } from "#server/contracts/admin-draws";
import type { AdminDrawListItem, AdminDrawSummary, DrawState } from "#server/contracts/draws";
import { DEFAULT_CLAIM_MINUTES } from "#server/contracts/draws";
import { formatLaunchTimeOrNone, STORE_TIME_ZONE } from "#server/contracts/store-time";
import { Badge } from "#app/components/admin/orders/badges";
import { Button } from "#app/components/ui/button";
import { Input } from "#app/components/ui/input";
import { Label } from "#app/components/ui/label";
import { SizeCounts } from "./size-counts";

/**
 * The admin Draws tab (issue 26, decision 0047): plain form posts to the tab's action, so it
 * works before hydration and without JavaScript; with it, Remix posts and reloads the list.
 */

export const STATE_STYLE: Record<DrawState, { label: string; className: string }> = {
  upcoming: { label: "Upcoming", className: "border-yellow-400/40 bg-yellow-400/15 text-yellow-200" },
  open: { label: "Entries open", className: "border-green-400/40 bg-green-500/15 text-green-200" },
  closed: { label: "Closed, to draw", className: "border-blue-400/40 bg-blue-500/15 text-blue-200" },
  drawn: { label: "Drawn", className: "border-border text-muted-foreground" },
};

const unitsText = (units: Record<string, number>) =>
  Object.entries(units)
    .map(([size, n]) => (size === "" ? String(n) : `${size} ${n}`))
    .join(", ");

function productLabel(product: DrawableProduct): string {
  const sizes = product.sizes.length > 0 ? ` (${product.sizes.map((s) => `${s.label} ${s.inventory}`).join(", ")})` : "";
  return `${product.name}: ${product.inventory} in stock${sizes}`;
}

/** The answer to the last post, beside the form it came from. */
export function DrawsNotice({ answer, intents }: { answer: AdminDrawsActionData | undefined; intents: string[] }) {
  if (!answer || !intents.includes(answer.intent)) return null;
  return answer.ok ? (
    <p role="status" className="rounded-md border border-success/40 bg-success/10 px-3 py-2 text-sm" data-testid="draws-notice">
      {answer.message}
    </p>
  ) : (
    <p
      role="alert"
      className="rounded-md border border-destructive/50 bg-destructive/10 px-3 py-2 text-sm text-destructive"
      data-testid="draws-error"
    >
      {answer.message}
    </p>
  );
}

function FieldErrorText({ answer, name }: { answer: AdminDrawsActionData | undefined; name: string }) {
  const message = answer && !answer.ok && answer.intent === "create" ? answer.fields[name]?.[0] : undefined;
  return message ? (
    <p id={`draw-${name}-error`} className="text-sm text-destructive">
      {message}
    </p>
  ) : null;
}

const invalidIn = (answer: AdminDrawsActionData | undefined, name: string) =>
  answer && !answer.ok && answer.intent === "create" && answer.fields[name] ? true : undefined;

/** A New York wall-clock date and time of the create form, with its error under it. */
function DateTimeField({ name, label, answer }: { name: string; label: string; answer: AdminDrawsActionData | undefined }) {
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={`draw-${name}`}>{label}</Label>
      <Input
        id={`draw-${name}`}
        name={name}
        type="datetime-local"
        required
        aria-invalid={invalidIn(answer, name)}
        className="[color-scheme:dark]"
      />
      <FieldErrorText answer={answer} name={name} />
    </div>
  );
}

export function CreateDrawForm({ products, answer }: { products: DrawableProduct[]; answer: AdminDrawsActionData | undefined }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "create";
  const invalid = (name: string) => invalidIn(answer, name);
  return (
    <Form
      method="post"
      className="space-y-4 rounded-lg border border-border bg-card p-5"
      aria-labelledby="create-draw-title"
      data-testid="create-draw"
    >
      <h3 id="create-draw-title" className="text-lg font-semibold">
        New draw
      </h3>
      <input type="hidden" name="intent" value="create" />
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col gap-2 sm:col-span-2">
          <Label htmlFor="draw-productId">Product</Label>
          <select
            id="draw-productId"
            name="productId"
            required
            defaultValue=""
            aria-invalid={invalid("productId")}
            className="h-11 w-full rounded-md border border-input bg-background px-3"
          >
            <option value="" disabled>
              Choose a product
            </option>
            {products.map((product) => (
              <option key={product.id} value={product.id}>
                {productLabel(product)}
              </option>
            ))}
          </select>
          <FieldErrorText answer={answer} name="productId" />
        </div>
        <DateTimeField name="entriesOpenAt" label="Entries open" answer={answer} />
        <DateTimeField name="entriesCloseAt" label="Entries close" answer={answer} />
        <div className="flex flex-col gap-2">
          <Label htmlFor="draw-claimMinutes">Minutes a winner has to buy</Label>
          <Input
            id="draw-claimMinutes"
            name="claimMinutes"
            inputMode="numeric"
            defaultValue={String(DEFAULT_CLAIM_MINUTES)}
            aria-invalid={invalid("claimMinutes")}
          />
          <FieldErrorText answer={answer} name="claimMinutes" />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="draw-units">Units (optional)</Label>
          <Input id="draw-units" name="units" placeholder="S=2, M=3" autoComplete="off" aria-invalid={invalid("units")} />
          <p className="text-xs text-muted-foreground">Blank: the product&apos;s stock. Sizes as S=2, M=3.</p>
          <FieldErrorText answer={answer} name="units" />
        </div>
      </div>
      <p className="text-xs text-muted-foreground">Times are New York time ({STORE_TIME_ZONE}). Entries must open in the future.</p>
      <DrawsNotice answer={answer} intents={["create"]} />
      <Button type="submit" disabled={busy} className="w-full sm:w-auto">
        {busy ? "Creating..." : "Create draw"}
      </Button>
    </Form>
  );
}

function DrawRowActions({ draw }: { draw: AdminDrawSummary }) {
  if (draw.state === "closed") {
    return (
      <Form method="post" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="draw" />
        <input type="hidden" name="id" value={draw.id} />
        <div className="flex flex-col gap-1">
          <Label htmlFor={`beacon-${draw.id}`} className="text-xs">
            Beacon (optional)
          </Label>
          <Input id={`beacon-${draw.id}`} name="beacon" maxLength={200} autoComplete="off" className="h-11 w-48" />
        </div>
        <Button type="submit">Draw</Button>
      </Form>
    );
  }
  if (draw.state === "upcoming") {
    return (
      <Form method="post">
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="id" value={draw.id} />
        <Button type="submit" variant="outline" aria-label={`Delete the draw for ${draw.product.name}`}>
          Delete
        </Button>
      </Form>
    );
  }
  return null;
}

/** A draw's facts as a two-column list: when entries open and close, then what the caller adds. */
export function DrawWindow({ draw, children }: { draw: { entriesOpenAt: string; entriesCloseAt: string }; children: ReactNode }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr_auto_1fr]">
      <dt className="text-muted-foreground">Opens</dt>
      <dd>{formatLaunchTimeOrNone(draw.entriesOpenAt)}</dd>
      <dt className="text-muted-foreground">Closes</dt>
      <dd>{formatLaunchTimeOrNone(draw.entriesCloseAt)}</dd>
      {children}
    </dl>
  );
}

export function DrawList({ draws }: { draws: AdminDrawListItem[] }) {
  if (draws.length === 0) return <p className="text-sm text-muted-foreground">No draws yet.</p>;
  return (
    <ul className="divide-y divide-border rounded-lg border border-border" data-testid="draw-list">
      {draws.map((draw) => {
        const state = STATE_STYLE[draw.state];
        return (
          <li key={draw.id} className="space-y-3 px-4 py-4" data-testid="draw-row" aria-labelledby={`draw-${draw.id}-name`}>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 id={`draw-${draw.id}-name`} className="font-medium">
                {draw.product.name}
              </h3>
              <Badge className={state.className}>{state.label}</Badge>
            </div>
            <DrawWindow draw={draw}>
              <dt className="text-muted-foreground">Entries</dt>
              <dd data-testid="draw-entries">
                {draw.confirmed} confirmed of {draw.entries}
              </dd>
              <dt className="text-muted-foreground">Units</dt>
              <dd>{unitsText(draw.units)}</dd>
              <dt className="text-muted-foreground">To buy</dt>
              <dd>{draw.claimMinutes} minutes</dd>
              {draw.beacon ? (
                <>
                  <dt className="text-muted-foreground">Beacon</dt>
                  <dd className="break-all">{draw.beacon}</dd>
                </>
              ) : null}
            </DrawWindow>
            <SizeCounts draw={draw} />
            <p className="text-xs break-all text-muted-foreground">
              Commitment: <code>{draw.commitment}</code>
            </p>
            <div className="flex flex-wrap items-end justify-between gap-3">
              <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
                <Link className="underline" to={`/admin/draws/${draw.id}`} aria-label={`Winners and claims: ${draw.product.name}`}>
                  Winners and claims
                </Link>
                <a className="underline" href={`/draws/${draw.id}`}>
                  Public page
                </a>
                {draw.state === "drawn" ? (
                  <a className="underline" href={`/api/draws/${draw.id}/proof`}>
                    Public proof
                  </a>
                ) : null}
                <a className="underline" href={`/api/admin/draws/${draw.id}/entries.csv`} download>
                  Entries CSV
                </a>
              </p>
              <DrawRowActions draw={draw} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
