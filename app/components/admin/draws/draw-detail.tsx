import { Link } from "@remix-run/react";
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
          <div className="max-w-2xl overflow-x-auto">
            <table className="w-full text-sm" data-testid="draw-winners">
              <thead className="text-xs text-muted-foreground">
                <tr>
                  <th scope="col" className="px-2 py-1 text-right font-normal">
                    Place
                  </th>
                  <th scope="col" className="px-2 py-1 text-left font-normal">
                    E-mail
                  </th>
                  <th scope="col" className="px-2 py-1 text-left font-normal">
                    Size
                  </th>
                  <th scope="col" className="px-2 py-1 text-left font-normal">
                    Claim
                  </th>
                  <th scope="col" className="px-2 py-1 text-right font-normal">
                    Entry
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-border">
                {draw.winners.map((winner) => (
                  <tr key={winner.n} data-testid="draw-winner">
                    <td className="px-2 py-1 text-right tabular-nums">{winner.place}</td>
                    <td className="px-2 py-1 break-all">{winner.email}</td>
                    <td className="px-2 py-1">{sizeLabel(winner.size)}</td>
                    <td className="px-2 py-1">{WINNER_STATE_LABELS[winnerStateOf(winner, draw.winners, now)]}</td>
                    <td className="px-2 py-1 text-right tabular-nums">#{winner.n}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
