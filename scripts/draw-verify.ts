/**
 * `npm run draw:verify -- <store URL> <draw id> [your e-mail]`: checks a draw from its public
 * proof alone (docs/draws.md): the seed matches the commitment published before entries opened,
 * the entries give the published chain, and the order and winners follow from them. With an
 * e-mail it also finds that entry. Exit code 0 when the draw holds, 1 when it does not, 2 when
 * the proof could not be read.
 */
import { emailHashOf, verifyProof, type DrawProof } from "#server/services/drop/draw-math";

const [storeUrl, drawIdText, email] = process.argv.slice(2);
if (!storeUrl || !drawIdText || !/^[1-9]\d*$/.test(drawIdText)) {
  console.error("Usage: npm run draw:verify -- <store URL> <draw id> [your e-mail]");
  process.exit(2);
}
const drawId = Number(drawIdText);
const base = storeUrl.replace(/\/+$/, "");

async function getJson(path: string): Promise<unknown> {
  const response = await fetch(`${base}${path}`, { headers: { Accept: "application/json" } });
  const body = (await response.json().catch(() => null)) as { message?: string } | null;
  if (!response.ok) throw new Error(`${path}: ${response.status} ${body?.message ?? response.statusText}`);
  return body;
}

let proof: DrawProof;
let published: { commitment?: string };
try {
  published = (await getJson(`/api/draws/${drawId}`)) as { commitment?: string };
  proof = (await getJson(`/api/draws/${drawId}/proof`)) as DrawProof;
} catch (error) {
  console.error(`Could not read the draw: ${(error as Error).message}`);
  process.exit(2);
}

const { problems } = verifyProof(proof);
if (published.commitment !== proof.commitment) problems.unshift("The proof's commitment is not the one the draw's page shows.");
console.log(`Draw ${drawId} at ${base}: ${proof.entries.length} confirmed entries, beacon "${proof.beacon}".`);
if (email) {
  const hash = emailHashOf(drawId, email);
  const mine = proof.entries.find((e) => e.emailHash === hash);
  if (!mine) console.log(`No entry for ${email} (its hash ${hash}).`);
  else {
    const place = proof.order.indexOf(mine.n) + 1;
    const won = proof.winners.includes(mine.n);
    console.log(`Your entry is number ${mine.n}; it was drawn in place ${place} of ${proof.order.length}${won ? ", a winner." : "."}`);
  }
}
if (problems.length === 0) {
  console.log("The draw holds: the seed matches the commitment, the entries give the chain, and the order and winners follow.");
} else {
  console.log("The draw does NOT hold:");
  for (const problem of problems) console.log(`- ${problem}`);
  process.exitCode = 1;
}
