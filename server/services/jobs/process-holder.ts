import crypto from "node:crypto";
import os from "node:os";

/**
 * This process, among the workers of `npm start` and the machines sharing the database: the name
 * it holds leases and leadership under. Its own module, so the jobs that hold leases need not
 * import one another to agree on it.
 */
export const processHolder = `${os.hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
