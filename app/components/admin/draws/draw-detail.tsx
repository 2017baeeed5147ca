import { Link } from "@remix-run/react";
import { Fragment } from "react";
import { WINNER_STATE_LABELS, winnerStateOf } from "#server/contracts/admin-draws";
import type { AdminDrawDetail } from "#server/contracts/draws";
import { formatLaunchTimeOrNone } from "#server/contracts/store-time";
import { Badge } from "#app/components/admin/orders/badges";
import { DrawWindow, STATE_STYLE } from "./draws-panel";
import { SizeCounts, sizeLabel } from "./size-counts";

/**
 * One draw for the admin (issue 26): entries per size, then the winners in drawn order with
 * where each claim stands (full e-mail: the admin's own entrants), and per size how far down the
 * drawn order the units have gone. Plain HTML: the same without JavaScript.
 */
export function DrawDetail({ draw, now }: { draw: AdminDrawDetail; now: string }) {
  const state = STATE_STYLE[draw.state];
  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link className="underline" to="/admin/draws">
          All draws
        </Link>
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <h3 className="text-xl font-semibold">{draw.product.name}</h3>
        <Badge className={state.className}>{state.label}</Badge>
      </div>
      <DrawWindow draw={draw}>
        <dt className="text-muted-foreground">Drawn</dt>
        <dd>{formatLaunchTimeOrNone(draw.drawnAt)}</dd>
        <dt className="text-muted-foreground">To buy</dt>
        <dd>{draw.claimMinutes} minutes</dd>
      </DrawWindow>
      <section aria-labelledby="draw-sizes-title" className="space-y-2">
        <h4 id="draw-sizes-title" className="font-medium">
          Entries per size
        </h4>
        <SizeCounts draw={draw} results className="max-w-2xl" />
      </section>
      <section aria-labelledby="draw-winners-title" className="space-y-2">
        <h4 id="draw-winners-title" className="font-medium">
          Winners and their claims
        </h4>
        {draw.winners.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="draw-no-winners">
            {draw.drawnAt
              ? "Nobody won: there were no confirmed entries for the units."
              : "No winners yet: the draw is made after the close."}
          </p>
        ) : (
          <WinnersTable draw={draw} now={now} />
        )}
        {draw.drawnAt ? (
          <p className="text-sm" data-testid="draw-reached">
            Drawn order reached:{" "}
            {Object.entries(draw.waitlistReached)
              .map(([size, place]) => `${sizeLabel(size)}: ${place === 0 ? "none" : `place ${place}`}`)
              .join(", ")}
          </p>
        ) : null}
      </section>
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <a className="underline" href={`/api/admin/draws/${draw.id}/entries.csv`} download>
          Entries CSV
        </a>
        {draw.state === "drawn" ? (
          <a className="underline" href={`/api/draws/${draw.id}/proof`}>
            Public proof
          </a>
        ) : null}
        <a className="underline" href={`/draws/${draw.id}`}>
          Public page
        </a>
      </p>
      <p className="text-xs break-all text-muted-foreground">
        Commitment: <code>{draw.commitment}</code>
      </p>
    </div>
  );
}

/** Line breaks an address may take: before its "@" and its dots, never inside a name or domain. */
function BreakableEmail({ email }: { email: string }) {
  const parts = email.split(/(?=[@.])/);
  return parts.map((part, i) => (
    <Fragment key={i}>
      {i > 0 ? <wbr /> : null}
      {part}
    </Fragment>
  ));
}

/**
 * The winners in drawn order. At 390 px five columns left the e-mail a sliver, broken mid-word,
 * and wrapped "Claim e-mailed": below `sm` each winner is a card instead (place and entry on top,
 * the whole address, then size and claim), as the size table above does. The column headers stay
 * for screen readers (visually hidden), the names shown beside the numbers are hidden from them,
 * and the explicit roles keep the table a table once its display changes (WebKit drops it).
 */
function WinnersTable({ draw, now }: { draw: AdminDrawDetail; now: string }) {
  const label = (text: string) => (
    <span aria-hidden="true" className="text-xs text-muted-foreground sm:hidden">
      {text}{" "}
    </span>
  );
  return (
    <div className="max-w-2xl overflow-x-auto">
      <table role="table" aria-labelledby="draw-winners-title" className="w-full text-sm max-sm:block" data-testid="draw-winners">
        <thead role="rowgroup" className="text-xs text-muted-foreground max-sm:sr-only">
          <tr role="row">
            <th scope="col" role="columnheader" className="px-2 py-1 text-right font-normal">
              Place
            </th>
            <th scope="col" role="columnheader" className="px-2 py-1 text-left font-normal">
              E-mail
            </th>
            <th scope="col" role="columnheader" className="px-2 py-1 text-left font-normal">
              Size
            </th>
            <th scope="col" role="columnheader" className="px-2 py-1 text-left font-normal">
              Claim
            </th>
            <th scope="col" role="columnheader" className="px-2 py-1 text-right font-normal">
              Entry
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup" className="divide-y divide-border max-sm:block">
          {draw.winners.map((winner) => (
            <tr
              key={winner.n}
              role="row"
              data-testid="draw-winner"
              className="max-sm:grid max-sm:grid-cols-[1fr_auto] max-sm:gap-x-4 max-sm:gap-y-0.5 max-sm:py-2"
            >
              <td
                role="cell"
                className="px-2 py-1 text-right tabular-nums max-sm:col-start-1 max-sm:row-start-1 max-sm:p-0 max-sm:text-left"
              >
                {label("Place")}
                {winner.place}
              </td>
              <td
                role="cell"
                className="px-2 py-1 sm:break-all max-sm:col-span-2 max-sm:row-start-2 max-sm:p-0 max-sm:font-medium max-sm:[overflow-wrap:anywhere]"
              >
                <BreakableEmail email={winner.email} />
              </td>
              <td role="cell" className="px-2 py-1 max-sm:col-start-1 max-sm:row-start-3 max-sm:p-0">
                {label("Size")}
                {sizeLabel(winner.size)}
              </td>
              <td
                role="cell"
                className="px-2 py-1 max-sm:col-start-2 max-sm:row-start-3 max-sm:p-0 max-sm:text-right max-sm:whitespace-nowrap"
              >
                {WINNER_STATE_LABELS[winnerStateOf(winner, draw.winners, now)]}
              </td>
              <td role="cell" className="px-2 py-1 text-right tabular-nums max-sm:col-start-2 max-sm:row-start-1 max-sm:p-0">
                {label("Entry")}#{winner.n}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
