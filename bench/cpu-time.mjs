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
