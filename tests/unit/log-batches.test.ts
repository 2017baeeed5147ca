import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The store's log on a real stdout (a child process): once the server listens, lines go out in
// batches (issue 24), and none is lost, reordered or held back longer than a moment.
const LOG = path.resolve("server/observability/log.ts");

function runChild(script: string) {
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, VITEST: "" },
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk) => (out += chunk));
  child.stderr.on("data", (chunk) => (err += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return { child, output: () => out, errors: () => err, exited };
}

const messages = (text: string) =>
  text
    .split("\n")
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { msg: string }).msg);

describe("the log's batches on stdout", () => {
  it("writes every batched line, in order, when the process exits at once", async () => {
    const run = runChild(`
      const { batchLogLines, log } = await import(${JSON.stringify(LOG)});
      log.info("before listening");
      batchLogLines();
      for (let i = 0; i < 500; i++) log.info("request " + i);
      process.exit(0);
    `);
    await run.exited;
    expect(run.errors()).toBe("");
    expect(messages(run.output())).toEqual(["before listening", ...Array.from({ length: 500 }, (_, i) => `request ${i}`)]);
  });

  it("writes a lone line within a moment, while the process runs on", async () => {
    const run = runChild(`
      const { batchLogLines, log } = await import(${JSON.stringify(LOG)});
      batchLogLines();
      log.info("a lone request");
      setTimeout(() => {}, 10_000);
    `);
    try {
      const deadline = Date.now() + 5_000;
      while (!run.output().includes("a lone request") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(messages(run.output())).toEqual(["a lone request"]);
    } finally {
      run.child.kill("SIGKILL");
      await run.exited;
    }
  });

  it("writes the waiting lines on flushLog, before a stop's process.exit", async () => {
    const run = runChild(`
      const { batchLogLines, flushLog, log } = await import(${JSON.stringify(LOG)});
      batchLogLines();
      log.info("last request");
      flushLog();
      process.kill(process.pid, "SIGKILL");
    `);
    await run.exited;
    expect(messages(run.output())).toEqual(["last request"]);
  });

  it("never writes more than a pipe takes whole (4 kB), so two workers' lines cannot interleave", async () => {
    const run = runChild(`
      const fs = (await import("node:fs")).default;
      const writes = [];
      const real = fs.writeSync;
      fs.writeSync = (fd, data, ...rest) => {
        if (fd === 1) writes.push(String(data));
        return real(fd, data, ...rest);
      };
      const { batchLogLines, flushLog, log } = await import(${JSON.stringify(LOG)});
      batchLogLines();
      for (let i = 0; i < 300; i++) log.info("request " + i + " ".repeat(i % 7 ? 40 : 300));
      log.info("x".repeat(6000));
      log.info("after the long one");
      flushLog();
      process.stderr.write(JSON.stringify(writes.map((text) => [Buffer.byteLength(text), text.endsWith("\\n")])));
    `);
    await run.exited;
    const writes = JSON.parse(run.errors()) as [number, boolean][];
    expect(writes.length).toBeGreaterThan(10);
    // Each write is whole lines; only the 6 kB line, alone, is over the pipe's 4 kB.
    expect(writes.every(([, whole]) => whole)).toBe(true);
    const over = writes.filter(([bytes]) => bytes > 4096);
    expect(over).toHaveLength(1);
    expect(over[0]![0]).toBeGreaterThan(6000);
    expect(over[0]![0]).toBeLessThan(6300);
    const lines = messages(run.output());
    expect(lines).toHaveLength(302);
    expect(lines.slice(-1)).toEqual(["after the long one"]);
  });
});
