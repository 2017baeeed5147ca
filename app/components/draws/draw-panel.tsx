import { Form } from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";
import type { DrawState, PublicDraw } from "#server/contracts/draws";
import { formatLaunchTimeOrNone } from "#server/contracts/store-zone";
import { Button } from "#app/components/ui/button";
import { Input } from "#app/components/ui/input";
import { Label } from "#app/components/ui/label";
import { HoneypotField } from "#app/components/honeypot-field";

/** Issue 26: a product sold by draw shows this instead of Add To Bag (and /draws/{id} shows it in full). */

const STATE_LABEL: Record<DrawState, string> = {
  upcoming: "Entries open soon",
  open: "Entries are open",
  closed: "Entries are closed: the draw is being made",
  drawn: "The draw has been made",
};

/** The state as the clock says now: a kept page was rendered earlier (decision 0047). */
function stateAt(draw: PublicDraw, now: number): DrawState {
  if (draw.state === "drawn") return "drawn";
  if (now < Date.parse(draw.entriesOpenAt)) return "upcoming";
  return now < Date.parse(draw.entriesCloseAt) ? "open" : "closed";
}

function Countdown({ to }: { to: string }) {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  if (now === null) return null;
  const left = Math.max(0, Math.floor((Date.parse(to) - now) / 1000));
  const [h, m, s] = [Math.floor(left / 3600), Math.floor((left % 3600) / 60), left % 60];
  return (
    <span className="font-mono" data-testid="draw-countdown">
      ({h}h {String(m).padStart(2, "0")}m {String(s).padStart(2, "0")}s left)
    </span>
  );
}

export function DrawPanel({
  draw,
  entered,
  sizeGuide,
}: {
  draw: PublicDraw;
  entered?: { ok: true; message: string } | { ok: false; message: string; fields: Record<string, string[]> } | null;
  /**
   * The product's "Size guide" (decision 0057), when the page draws it in this panel: drawn once,
   * beside the entry form's size picker while the form shows one, else beside the draw's sizes.
   */
  sizeGuide?: ReactNode;
}) {
  const state = stateAt(draw, Date.now());
  // Where, not whether: the page decided that; only here is the state by the browser's clock known.
  const pickerShown = !entered?.ok && state === "open" && draw.sizes.length > 0;
  const emailError = entered && !entered.ok ? entered.fields.email?.[0] : undefined;
  const sizeError = entered && !entered.ok && draw.sizes.length > 0 ? entered.fields.size?.[0] : undefined;
  return (
    <section aria-labelledby="draw-title" className="space-y-4 rounded-md border border-foreground/30 bg-card p-5" data-testid="draw-panel">
      <div className="space-y-1">
        <p className="text-xs font-semibold tracking-[0.2em] text-muted-foreground uppercase">Sold by draw</p>
        <h2 id="draw-title" className="font-display text-3xl leading-none" data-testid="draw-state">
          {STATE_LABEL[state]}
        </h2>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-muted-foreground">Opens</dt>
        <dd>{formatLaunchTimeOrNone(draw.entriesOpenAt)}</dd>
        <dt className="text-muted-foreground">Closes</dt>
        <dd>
          {formatLaunchTimeOrNone(draw.entriesCloseAt)}
          {state === "open" ? (
            <>
              {" "}
              <Countdown to={draw.entriesCloseAt} />
            </>
          ) : null}
        </dd>
        <dt className="text-muted-foreground">Entries</dt>
        <dd data-testid="draw-entry-count">{draw.entryCount}</dd>
      </dl>

      {sizeGuide && !pickerShown ? (
        <div className="flex flex-wrap items-center justify-between gap-x-4 border-t border-border pt-3" data-testid="draw-sizes">
          <p className="text-sm">
            <span className="text-xs font-semibold tracking-[0.2em] text-muted-foreground uppercase">Size:</span>{" "}
            <span className="font-medium">{draw.sizes.length > 0 ? draw.sizes.join(", ") : "One Size"}</span>
          </p>
          {sizeGuide}
        </div>
      ) : null}

      {entered?.ok ? (
        <p role="status" className="rounded-md border border-border bg-background p-3 font-medium" data-testid="draw-entered">
          {entered.message}
        </p>
      ) : state === "open" ? (
        <Form method="post" action={`/draws/${draw.id}`} className="space-y-3" data-testid="draw-entry-form">
          <HoneypotField idPrefix="draw" />
          <div className="space-y-1.5">
            <Label htmlFor="draw-email">E-mail</Label>
            <Input id="draw-email" name="email" type="email" required autoComplete="email" aria-invalid={emailError ? true : undefined} />
            {emailError ? <p className="text-sm text-destructive">{emailError}</p> : null}
          </div>
          {draw.sizes.length > 0 ? (
            <div className="space-y-1.5">
              <Label htmlFor="draw-size">Size</Label>
              <select
                id="draw-size"
                name="size"
                required
                defaultValue=""
                aria-invalid={sizeError ? true : undefined}
                aria-describedby={sizeError ? "draw-size-error" : undefined}
                className="h-11 w-full rounded-md border border-input bg-background px-3"
              >
                <option value="" disabled>
                  Choose a size
                </option>
                {draw.sizes.map((size) => (
                  <option key={size} value={size}>
                    {size}
                  </option>
                ))}
              </select>
              {sizeGuide && pickerShown ? <div>{sizeGuide}</div> : null}
              {sizeError ? (
                <p id="draw-size-error" className="text-sm text-destructive">
                  {sizeError}
                </p>
              ) : null}
            </div>
          ) : null}
          <div className="space-y-1.5">
            <Label htmlFor="draw-name">Name (optional)</Label>
            <Input id="draw-name" name="name" autoComplete="name" maxLength={100} />
          </div>
          {entered && !entered.ok && !emailError && !sizeError ? (
            <p role="alert" className="text-sm text-destructive">
              {entered.message}
            </p>
          ) : null}
          <Button type="submit" size="lg" className="w-full">
            Enter the draw
          </Button>
          <p className="text-xs text-muted-foreground">One entry per person. We e-mail you a link: only confirmed entries take part.</p>
        </Form>
      ) : null}

      <details className="text-xs text-muted-foreground">
        <summary className="cursor-pointer">How you can check this draw</summary>
        <p className="mt-2">
          Commitment (published before entries open): <code className="break-all">{draw.commitment}</code>
        </p>
        <p className="mt-1">
          Chain after {draw.entryCount} entries: <code className="break-all">{draw.chain}</code>
        </p>
        {state === "drawn" ? (
          <p className="mt-1">
            <a className="underline" href={`/api/draws/${draw.id}/proof`}>
              The proof
            </a>
          </p>
        ) : null}
      </details>
    </section>
  );
}
