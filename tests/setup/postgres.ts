import { execFile, execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/**
 * A throwaway PostgreSQL server for tests: initdb into a temporary directory, a free loopback
 * port, `pg_ctl start`, and `pg_ctl stop` at the end. Debian's binaries live under
 * /usr/lib/postgresql/<version>/bin (not on PATH); PG_BIN overrides. initdb and the server refuse
 * to run as root, so as root they run as the unprivileged `postgres` user (which Debian's
 * package creates), and the directory is handed to that user.
 */

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust authentication, loopback only). */
  url: string;
  port: number;
  /** A URL for another database on the same server. */
  urlFor(database: string): string;
  /**
   * `pg_ctl restart -m fast`, as an operator's maintenance restart: every session is ended (57P01),
   * the server is down for a moment and back on the same port. Asynchronous, so the test's own
   * requests go on meanwhile.
   */
  restart(): Promise<void>;
  /** `pg_ctl stop -m fast`, keeping the cluster: the database is down until `resume()`. */
  pause(): void;
  resume(): void;
  stop(): void;
}

/** The bin directory of the newest PostgreSQL installed, or null when there is none. */
export function findPostgresBin(env: Record<string, string | undefined> = process.env, root = "/usr/lib/postgresql"): string | null {
  const candidates: string[] = [];
  if (env.PG_BIN) candidates.push(env.PG_BIN);
  if (fs.existsSync(root)) {
    const versions = fs
      .readdirSync(root)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => path.join(root, version, "bin")));
  }
  return candidates.find((dir) => fs.existsSync(path.join(dir, "initdb")) && fs.existsSync(path.join(dir, "pg_ctl"))) ?? null;
}

/** Why PostgreSQL tests cannot run here, or null when they can. */
export function postgresUnavailable(env: Record<string, string | undefined> = process.env, root?: string): string | null {
  if (!findPostgresBin(env, root)) {
    return "PostgreSQL binaries not found (no /usr/lib/postgresql/*/bin/initdb; install Debian's `postgresql` or set PG_BIN)";
  }
  if (isRoot() && !userExists("postgres")) return "running as root and there is no `postgres` user to run initdb as";
  return null;
}

function isRoot() {
  return process.getuid?.() === 0;
}

function userExists(name: string) {
  return spawnSync("id", ["-u", name], { stdio: "ignore" }).status === 0;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}

function commandFor(bin: string, program: string, args: string[]): [string, string[]] {
  const file = path.join(bin, program);
  return isRoot() ? ["runuser", ["-u", "postgres", "--", file, ...args]] : [file, args];
}

/** Runs a PostgreSQL program, as `postgres` when we are root. Throws with its output on failure. */
function run(bin: string, program: string, args: string[]) {
  const [command, argv] = commandFor(bin, program, args);
  try {
    execFileSync(command, argv, { stdio: "pipe", encoding: "utf8", timeout: 120_000 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${program} ${args.join(" ")} failed: ${e.message}\n${e.stdout ?? ""}${e.stderr ?? ""}`);
  }
}

/** As `run`, without blocking the event loop meanwhile. */
function runInBackground(bin: string, program: string, args: string[]): Promise<void> {
  const [command, argv] = commandFor(bin, program, args);
  return new Promise((resolve, reject) => {
    execFile(command, argv, { encoding: "utf8", timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${program} ${args.join(" ")} failed: ${error.message}\n${stdout}${stderr}`));
      else resolve();
    });
  });
}

const PREFIX = "store-pg-";

function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Servers left by runs that were killed before their teardown (a server outlives its vitest): each
 * directory names the process that started it, and only those whose process is gone are stopped,
 * so another run on this machine (another worktree) keeps its server.
 */
function stopOrphans(bin: string) {
  for (const name of fs.readdirSync(os.tmpdir()).filter((entry) => entry.startsWith(PREFIX))) {
    const dir = path.join(os.tmpdir(), name);
    let owner = 0;
    try {
      owner = Number(fs.readFileSync(path.join(dir, "owner.pid"), "utf8"));
    } catch {
      continue; // not ours, or still being made
    }
    if (!owner || alive(owner)) continue;
    try {
      if (fs.existsSync(path.join(dir, "data", "postmaster.pid")))
        run(bin, "pg_ctl", ["-D", path.join(dir, "data"), "-m", "immediate", "-w", "stop"]);
    } catch {
      // already stopped
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function startPostgres(): Promise<PostgresServer> {
  const reason = postgresUnavailable();
  if (reason) throw new Error(reason);
  const bin = findPostgresBin()!;
  stopOrphans(bin);
  // Under the OS temp dir, not the repository: the postgres user must be able to reach it.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), PREFIX));
  fs.writeFileSync(path.join(dir, "owner.pid"), String(process.pid));
  const data = path.join(dir, "data");
  if (isRoot()) execFileSync("chown", ["-R", "postgres:postgres", dir]);
  // --locale=C: byte-order text comparison, as SQLite's (the store compares ISO instants as text;
  // the migrations also say COLLATE "C" so a cluster with another locale behaves the same).
  run(bin, "initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--locale=C", "--encoding=UTF8", "--no-sync"]);
  const port = await freePort();
  // Durability is pointless for a throwaway cluster; the socket goes in our directory, not /run.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  run(bin, "pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "server.log"), "-w", "-t", "60", "start"]);
  let stopped = false;
  const urlFor = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    url: urlFor("postgres"),
    port,
    urlFor,
    restart: () =>
      runInBackground(bin, "pg_ctl", [
        "-D",
        data,
        "-o",
        options,
        "-l",
        path.join(dir, "server.log"),
        "-m",
        "fast",
        "-w",
        "-t",
        "60",
        "restart",
      ]),
    pause() {
      run(bin, "pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "60", "stop"]);
    },
    resume() {
      run(bin, "pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "server.log"), "-w", "-t", "60", "start"]);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run(bin, "pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
