import { Link } from "@remix-run/react";
import type { DropListItem } from "#server/contracts/drops";
import { formatDropTime } from "./format";

const STATE_WORD: Record<DropListItem["state"], string> = { upcoming: "Upcoming", live: "Live", past: "Finished" };

/** Every drop, newest first, each linking to its report. */
export function DropList({ drops }: { drops: DropListItem[] }) {
  return (
    <ul className="divide-y divide-border rounded-lg border border-border">
      {drops.map((drop) => (
        <li key={drop.id}>
          <Link
            to={`/admin/drops/${drop.id}`}
            className="flex min-h-11 flex-wrap items-center justify-between gap-2 px-4 py-3 hover:bg-muted"
          >
            <span className="font-medium">Drop of {formatDropTime(drop.countdownAt)}</span>
            <span className="text-sm text-muted-foreground">{STATE_WORD[drop.state]}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
