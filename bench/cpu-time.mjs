// CPU time of whole processes (every thread: JavaScript, GC helpers, libuv's pool), read from
// Linux's /proc in nanoseconds, so the bench can say what each answer cost the server whatever the
// load generator could keep up with. Null where /proc is not there.
import fs from "node:fs";

const read = (file) => {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
};

/** The process and, for a cluster primary, its workers: what serves one port. */
export function processTree(pid) {
  const children = read(`/proc/${pid}/task/${pid}/children`);
  if (children === null) return null;
  return [pid, ...children.split(/\s+/).filter(Boolean).map(Number)];
}

/** The parent of a process (a cluster worker's primary). */
export function parentOf(pid) {
  const stat = read(`/proc/${pid}/stat`);
  if (stat === null) return null;
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

/** Nanoseconds of CPU the processes have used so far, or null. */
export function cpuNanos(pids) {
  if (!pids) return null;
  let total = 0;
  for (const pid of pids) {
    let tasks;
    try {
      tasks = fs.readdirSync(`/proc/${pid}/task`);
    } catch {
      return null;
    }
    for (const task of tasks) {
      const schedstat = read(`/proc/${pid}/task/${task}/schedstat`);
      if (schedstat) total += Number(schedstat.split(" ")[0]);
    }
  }
  return total;
}

/**
 * The host's count of connections the kernel dropped because a listen queue was full
 * (TcpExt ListenOverflows in /proc/net/netstat), or null. Host-wide: read around a rush, a rise
 * means shoppers' connections were retried by TCP (1 s, then 3 s later), whoever's queue it was.
 */
export function listenOverflows() {
  const netstat = read("/proc/net/netstat");
  if (netstat === null) return null;
  const lines = netstat.split("\n").filter((line) => line.startsWith("TcpExt:"));
  if (lines.length < 2) return null;
  const names = lines[0].split(/\s+/);
  const values = lines[1].split(/\s+/);
  const at = names.indexOf("ListenOverflows");
  return at === -1 ? null : Number(values[at]);
}
