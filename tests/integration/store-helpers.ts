import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { NewProduct } from "#db/schema";
import type { AppContext } from "#server/context";
import { fulfilDueOrders } from "#server/services/fulfilment/fulfilment";
import type { CookieJar } from "../setup/http";

/** A product row with sensible defaults; every test makes its own so tests never share state. */
export async function addProduct(ctx: AppContext, overrides: Partial<NewProduct>): Promise<number> {
  const now = ctx.clock.now().toISOString();
  const { id } = await ctx.db
    .insertInto("products")
    .values({
      name: "Test Product",
      description: "A tee that exists to test the rounding of prices.",
      priceCents: 4000,
      inventory: 10,
      createdAt: now,
      updatedAt: now,
      ...overrides,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

export async function addImage(
  ctx: AppContext,
  productId: number,
  overrides: { isPrimary?: 0 | 1; displayOrder?: number; imageUrl?: string; imagePath?: string },
): Promise<number> {
  const { id } = await ctx.db
    .insertInto("productImages")
    .values({ productId, imageUrl: "https://cdn.example.com/p.jpg", imagePath: null, ...overrides })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

type RouteArgs = LoaderFunctionArgs & ActionFunctionArgs;
type RouteHandler = (args: RouteArgs) => unknown;

export interface RouteResult<T> {
  status: number;
  data: T;
  headers: Headers;
}

interface DataWithInit {
  type: "DataWithResponseInit";
  data: unknown;
  init: ResponseInit | null;
}

const isDataWithInit = (value: unknown): value is DataWithInit =>
  typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit";

async function settle(value: unknown, fallbackStatus: number): Promise<RouteResult<unknown>> {
  if (value instanceof Response) {
    const text = await value.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: value.status, data: body, headers: value.headers };
  }
  if (isDataWithInit(value)) {
    return { status: value.init?.status ?? fallbackStatus, data: value.data, headers: new Headers(value.init?.headers) };
  }
  return { status: fallbackStatus, data: value, headers: new Headers() };
}

/**
 * Runs a page's loader or action as Remix would for a browser without JavaScript: a form body
 * (URL-encoded), the jar's cookies, and whatever the route returns or throws, settled into
 * status, data and headers.
 */
export async function runRoute<T = unknown>(
  handler: RouteHandler,
  options: { method?: string; path: string; form?: Record<string, string>; jar?: CookieJar; params?: Record<string, string> },
): Promise<RouteResult<T>> {
  const { method = options.form ? "POST" : "GET", path, form, jar, params = {} } = options;
  const headers = new Headers();
  if (jar) headers.set("Cookie", jar.header());
  if (form) headers.set("Content-Type", "application/x-www-form-urlencoded");
  const request = new Request(`http://localhost${path}`, { method, headers, body: form ? new URLSearchParams(form) : undefined });
  let result: RouteResult<unknown>;
  try {
    result = await settle(await handler({ request, params, context: { clientIp: "203.0.113.9" } } as RouteArgs), 200);
  } catch (thrown) {
    result = await settle(thrown, 500);
  }
  if (jar) {
    const response = new Response(null, { headers: result.headers });
    jar.store(response);
  }
  return result as RouteResult<T>;
}

/**
 * What the store's fulfilment job does within a second of a payment (decision 0027): passes until
 * no paid order is due its e-mail or label. Returns how many orders it worked on.
 */
export async function runFulfilmentJob(ctx: AppContext): Promise<number> {
  let total = 0;
  for (let worked = await fulfilDueOrders(ctx); worked > 0; worked = await fulfilDueOrders(ctx)) total += worked;
  return total;
}
