import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitmentOf, emailHashOf, runDraw, type DrawProof } from "#server/services/drop/draw-math";

// Issue 26: `npm run draw:verify -- <store URL> <draw id>` against a store that publishes a proof.
const SEED = "11".repeat(32);
const COMMITMENT = commitmentOf(SEED);
const entries = ["ann@example.com", "bob@example.com", "cy@example.com"].map((email, i) => ({
  n: i + 1,
  emailHash: emailHashOf(3, email),
  size: "",
}));
const good: DrawProof = {
  commitment: COMMITMENT,
  seed: SEED,
  beacon: "round-9",
  entries,
  units: { "": 1 },
  ...runDraw({ seedHex: SEED, commitment: COMMITMENT, beacon: "round-9", entries, units: { "": 1 } }),
};
let served: DrawProof = good;
let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    response.setHeader("Content-Type", "application/json");
    if (request.url === "/api/draws/3") return response.end(JSON.stringify({ id: 3, commitment: COMMITMENT }));
    if (request.url === "/api/draws/3/proof") return response.end(JSON.stringify(served));
    response.statusCode = 404;
    response.end(JSON.stringify({ message: "Draw not found.", errors: {} }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function verify(...args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/draw-verify.ts", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (out += chunk));
    child.on("exit", (code) => resolve({ code, out }));
  });
}

describe("npm run draw:verify", () => {
  it("says the draw holds for the published proof, and finds an entrant's own entry", async () => {
    served = good;
    const { code, out } = await verify(url, "3", "Bob@Example.com");
    expect(code).toBe(0);
    expect(out).toContain("The draw holds");
    expect(out).toContain("Your entry is number 2");
  }, 90_000);

  it("fails when an entry or the seed was changed", async () => {
    served = { ...good, entries: [entries[0]!, { ...entries[1]!, size: "M" }, entries[2]!] };
    const entry = await verify(url, "3");
    expect(entry.code).toBe(1);
    expect(entry.out).toContain("The entries do not give the published chain: an entry was changed, added or removed.");

    served = { ...good, seed: "22".repeat(32) };
    const seed = await verify(url, "3");
    expect(seed.code).toBe(1);
    expect(seed.out).toContain("The seed does not match the commitment published before entries opened.");
  }, 90_000);

  it("says so when there is no proof to read", async () => {
    const { code, out } = await verify(url, "4");
    expect(code).toBe(2);
    expect(out).toContain("Could not read the draw: /api/draws/4: 404 Draw not found.");
  }, 90_000);
});
