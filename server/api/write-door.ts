import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import type { AppContext } from "#server/context";
import { answerFailure } from "#server/http/failure-answer";
import { clientAddressOf, forwardedProto, fromTrustedHop } from "#server/http/requests/forwarded";
import { refuseCrossSiteWrites } from "#server/http/requests/origin";
import { dispatchApi } from "./dispatch";
import { apiWriteRequestOf, sendFetchResponse } from "./node-exchange";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const API_PATH = /^\/api(?:[/?]|$)/;

/** A write to the API table: what the rush sends (bag, rates, order, payment), and every admin write. */
export const isApiWrite = (req: IncomingMessage) => WRITES.has(req.method ?? "") && API_PATH.test(req.url ?? "");

/**
 * The API's writes answered on node's own request, ahead of Express (decision 0056): the same
 * cross-site check, client address and request URL Express gave them, then the API table. Express
 * and compression() cost more CPU than most of these calls' own work; their answers are small JSON,
 * compressed here when 1 kB or more. Reads stay with Express (and the answer cache).
 */
export function apiWriteDoor(ctx: AppContext) {
  const { config } = ctx;
  const hops = config.trustProxy;
  const crossSiteCheck = refuseCrossSiteWrites(config);
  return (req: IncomingMessage, res: ServerResponse): void => {
    crossSiteCheck(req, res, () => {
      const encrypted = (req.socket as Partial<TLSSocket>).encrypted;
      const scheme = forwardedProto(req.headers["x-forwarded-proto"], hops) ?? (encrypted ? "https" : "http");
      // The listener has refused a Host no URL can be made of (raw-listener.ts); HTTP/1.0 may send none.
      const host = fromTrustedHop(req.headers["x-forwarded-host"], hops) ?? req.headers.host ?? "localhost";
      apiWriteRequestOf(req, res, `${scheme}://${host}${req.url}`)
        .then((request) => dispatchApi(request, { clientIp: clientAddressOf(req, hops) ?? "unknown" }))
        .then((response) => sendFetchResponse(req, res, response, true))
        .catch((error: unknown) => answerFailure(req, res, error, config.brand.name));
    });
  };
}
