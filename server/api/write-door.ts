import type { IncomingMessage, ServerResponse } from "node:http";
import { isPostgres } from "#db/engine";
import type { AppContext } from "#server/context";
import { answerFailure } from "#server/http/failure-answer";
import { bodyInHand } from "#server/http/requests/request-body";
import { storeBusyJson } from "#server/http/store-busy";
import { writeLane, type WriteLane } from "#server/http/write-lane";
import { clientAddressOf, requestUrlOf } from "#server/http/requests/forwarded";
import { refuseCrossSiteWrites } from "#server/http/requests/origin";
import { answerApi } from "./dispatch";
import { apiWriteRequestOf, sendAnswer, sendFetchResponse } from "./node-exchange";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const API_PATH = /^\/api(?:[/?]|$)/;

/** A write to the API table: what the rush sends (bag, rates, order, payment), and every admin write. */
export const isApiWrite = (req: IncomingMessage) => WRITES.has(req.method ?? "") && API_PATH.test(req.url ?? "");

/**
 * The lane the writes take turns in (decision 0065), or none on PostgreSQL. On SQLite a write's
 * work runs in one piece, so pacing the writes lets the pages in between. On PostgreSQL it comes
 * in pieces between the database's answers, and pages wait on the database too: pacing only made
 * the writes wait (perf.md, 2026-11-29 23:24: the bag's p99 1.9×, the product page's no better).
 */
export function writeLaneFor(ctx: AppContext): WriteLane | null {
  return isPostgres(ctx.db) ? null : writeLane();
}

/**
 * The API's writes answered on node's own request, ahead of Express (decision 0056): the same
 * cross-site check, client address and request URL Express gave them, then the API table. Express
 * and compression() cost more CPU than most of these calls' own work; their answers are small JSON,
 * compressed here when 1 kB or more. Reads stay with Express (and the answer cache).
 *
 * On SQLite, the writes whose small JSON body is in hand (the rush's) take turns with the pages
 * (decision 0065): a product page is not kept behind the bags. When the lane's waiting limit is
 * reached, such a write is answered 503 "store busy" unrun.
 */
export function apiWriteDoor(ctx: AppContext, lane: WriteLane | null = writeLaneFor(ctx)) {
  const { config } = ctx;
  const hops = config.trustProxy;
  const crossSiteCheck = refuseCrossSiteWrites(config);
  return (req: IncomingMessage, res: ServerResponse): void => {
    crossSiteCheck(req, res, () => {
      apiWriteRequestOf(req, res, requestUrlOf(req, hops))
        .then(async (request) => {
          if (!request) return;
          const clientIp = clientAddressOf(req, hops) ?? "unknown";
          const write = async () => {
            await sendAnswer(req, res, await answerApi(request, { clientIp }), true);
          };
          // A body still streaming in (an upload, a webhook, a CSP report) comes at the sender's
          // pace: such a write does not take turns, or a slow sender would hold the lane.
          if (!lane || !bodyInHand(request)) return write();
          if (!(await lane.run(write))) await sendFetchResponse(req, res, storeBusyJson(), true);
        })
        .catch((error: unknown) => answerFailure(req, res, error, config.brand.name));
    });
  };
}
