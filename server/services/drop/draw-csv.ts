import { stringify } from "csv-stringify/sync";
import { sql } from "kysely";
import type { AppContext } from "#server/context";
import { neutraliseCell } from "#server/services/mail/admin-subscribers";
import { drawRow } from "./draws";

/**
 * A draw's entries as CSV for the admin (decision 0047), the proof's numbers first: commitment,
 * seed (once drawn), beacon and chain, then one row per entry: its place in the drawn order
 * (empty before the draw), its receipt's chain_n, whether it won (a unit given, even if it later
 * passed on). New columns go at the end, so a sheet built on the old ones still reads. BOM and
 * CRLF for Excel, as the other exports; what entrants typed is neutralised against formula injection.
 */
export async function drawEntriesCsv(ctx: AppContext, id: number): Promise<{ filename: string; csv: string }> {
  const draw = await drawRow(ctx, id);
  const { seed } = await ctx.db.selectFrom("draws").select("seed").where("id", "=", id).executeTakeFirstOrThrow();
  const entries = await ctx.db
    .selectFrom("drawEntries")
    .select([
      "n",
      "emailHash",
      "size",
      "email",
      "name",
      "createdAt",
      "confirmedAt",
      "place",
      "wonAt",
      "claimedAt",
      "paidAt",
      "lapsedAt",
      "chain",
    ])
    .where("drawId", "=", id)
    // Confirmed entries by number, then the unconfirmed, on both engines (they sort nulls apart).
    .orderBy(sql`CASE WHEN n IS NULL THEN 1 ELSE 0 END`)
    .orderBy("n")
    .orderBy("id")
    .execute();
  const rows: string[][] = [
    ["proof", "commitment", draw.commitment],
    ["proof", "seed", draw.drawnAt ? seed : "(published after the draw)"],
    ["proof", "beacon", draw.beacon ?? ""],
    ["proof", "chain", draw.chain],
    [],
    [
      "n",
      "emailHash",
      "size",
      "email",
      "name",
      "enteredAt",
      "confirmedAt",
      "place",
      "wonAt",
      "claimedAt",
      "paidAt",
      "lapsedAt",
      "chainN",
      "won",
    ],
    ...entries.map((e) =>
      [
        e.n ?? "",
        e.emailHash,
        neutraliseCell(e.size),
        neutraliseCell(e.email),
        neutraliseCell(e.name ?? ""),
        e.createdAt,
        e.confirmedAt ?? "",
        e.place ?? "",
        e.wonAt ?? "",
        e.claimedAt ?? "",
        e.paidAt ?? "",
        e.lapsedAt ?? "",
        e.chain ?? "",
        e.wonAt ? "yes" : "",
      ].map(String),
    ),
  ];
  return { filename: `draw-${id}-entries.csv`, csv: stringify(rows, { bom: true, record_delimiter: "windows" }) };
}
