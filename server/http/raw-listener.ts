import type { IncomingMessage, ServerResponse } from "node:http";
import { meter } from "#server/observability/meter";
import { answerBare, answerFailure } from "./failure-answer";
import { stripInternalHeaders } from "./requests/internal-headers";
import { methodLabel, routeKindOf, type AnsweredBy } from "./route-kind";
import { startRequestLog, type RequestEnded } from "#server/observability/request-log";
import { requestIdAsHeader } from "./store-response";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface RawListenerParts {
  /** The waiting-room gate: true when it answered, false to go on, or a promise of either. */
  gate: (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;
  /**
   * The caches ahead of Express; `next` for anything they do not answer. `byApp` says an answer is
   * the app's own work, not a cached copy: its request line is never sampled away, and a page so
   * answered is a `memo_page` in the metrics, not a `cached_page`.
   */
  fastPath: (req: IncomingMessage, res: ServerResponse, next: () => void, byApp: () => void) => void;
  /** Everything else (Express). */
  fallback: Handler;
  /** The brand on the failure page. */
  brandName: string;
  /** TRUST_PROXY's hop count, for the proxy's X-Request-Id (none trusted when left out). */
  trustProxy?: number;
  /** LOG_CACHED_SAMPLE: the share of the caches' answers that get a request line (all when left out). */
  cachedSample?: number;
}

const PLAIN_HOST = /^[A-Za-z0-9.-]+(?::(\d{1,5}))?$/;

/**
 * True when a Host (or X-Forwarded-Host entry) makes a URL: the pages build theirs from it, and
 * `new URL` throws on what it cannot parse. An absent one (HTTP/1.0) is fine: the store's own stands in.
 */
export function wellFormedHost(host: string | undefined): boolean {
  if (host === undefined) return true;
  const plain = PLAIN_HOST.exec(host);
  if (plain) return plain[1] === undefined || Number(plain[1]) <= 65_535;
  return !/[\s/?#@\\%]/.test(host) && host !== "" && URL.canParse(`http://${host}/`);
}

function wellFormedHosts(req: IncomingMessage): boolean {
  if (!wellFormedHost(req.headers.host)) return false;
  const forwarded = req.headers["x-forwarded-host"];
  return (
    forwarded === undefined ||
    String(forwarded)
      .split(",")
      .every((entry) => wellFormedHost(entry.trim()))
  );
}

const ABSOLUTE_FORM = /^https?:\/\//i;

/**
 * The request target in the origin form the routes read (`/store?page=2`), or false when there is
 * none (RFC 9112 §3.2). The absolute form (`GET http://shop.example/store`), which a server must
 * accept, becomes its path and query, and its authority stands for Host, as the RFC says; the
 * asterisk form names no resource but for OPTIONS (`GET *` rendered the home page).
 */
function originForm(req: IncomingMessage): boolean {
  const target = req.url ?? "";
  if (target.charCodeAt(0) === 47 /* "/" */) return true;
  if (target === "*") return req.method === "OPTIONS";
  if (!ABSOLUTE_FORM.test(target) || !URL.canParse(target)) return false;
  const url = new URL(target);
  req.url = url.pathname + url.search;
  req.headers.host = url.host;
  return true;
}

/**
 * server.js's request listener (issue 21: a request can fail, a worker cannot). Its first line
 * takes off the internal header names; a target that is no path, or a Host no URL can be made
 * of, is a 400; then the gate, the fast path and Express, in that order. A throw anywhere in it,
 * or a rejected promise of the gate, answers that one request 500 (the branded page, or the JSON
 * error on /api) and is logged: it never reaches the process, and it never hands the request on
 * to Express past the gate.
 */
export function rawRequestListener({ gate, fastPath, fallback, brandName, trustProxy = 0, cachedSample = 1 }: RawListenerParts): Handler {
  const logOptions = { trustProxy, cachedSample };
  const fail = (req: IncomingMessage, res: ServerResponse, error: unknown) => answerFailure(req, res, error, brandName);
  // Who answered, for the metrics: Express (and Remix behind it) where it was called, else a door
  // on the fast path that said so (byApp), else the fast path's caches; the gate's own answers are the app's.
  const byExpress = new WeakSet<ServerResponse>();
  const byDoor = new WeakSet<ServerResponse>();
  const passedGate = new WeakSet<ServerResponse>();
  const answererOf = (res: ServerResponse): AnsweredBy => {
    if (!passedGate.has(res) || byExpress.has(res)) return "app";
    return byDoor.has(res) ? "door" : "cache";
  };
  // Counted when the answer ends, with the URL as it arrived: Express rewrites req.url under a
  // mount (/api/cart is "/cart" inside apiMiddleware).
  const measured: RequestEnded = (req, res, url, status, seconds) =>
    meter().request(routeKindOf(url, answererOf(res)), methodLabel(req.method), status, seconds);
  const onward = (req: IncomingMessage, res: ServerResponse, answeredBy: (by: "cache" | "app") => void) => {
    passedGate.add(res);
    answeredBy("cache");
    fastPath(
      req,
      res,
      () => {
        byExpress.add(res);
        answeredBy("app");
        requestIdAsHeader(res);
        try {
          fallback(req, res);
        } catch (error) {
          fail(req, res, error);
        }
      },
      () => {
        byDoor.add(res);
        answeredBy("app");
      },
    );
  };
  return (req, res) => {
    // Every answer, the fast path's and Express's, carries the request id and gets its line (issue 27).
    const request = startRequestLog(req, res, logOptions, measured);
    request.run(() => {
      try {
        stripInternalHeaders(req);
        if (!originForm(req)) return answerBare(req, res, 400, brandName, "The request's target is not valid.");
        if (!wellFormedHosts(req)) return answerBare(req, res, 400, brandName, "The request's Host header is not valid.");
        const handled = gate(req, res);
        if (handled === false) return onward(req, res, request.answeredBy);
        if (handled === true) return;
        handled.then((done) => done || onward(req, res, request.answeredBy)).catch((error: unknown) => fail(req, res, error));
      } catch (error) {
        fail(req, res, error);
      }
    });
  };
}
