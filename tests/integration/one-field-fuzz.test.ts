// A valid request with one field made hostile, at the JSON doors a drop and the back office lean
// on (25 of them: the bag, checkout, forms, products, draws, settings, orders, tRPC), on the built
// store with two workers, as the shopper, stranger or admin each door is for. Where the every-door
// fuzz mostly meets the contracts' first refusal, these bodies get past it everywhere but one
// field, so the services read the rest. Each request is first sent as it is and must be answered
// as the door answers a good one (a template gone stale fails here rather than quietly testing
// nothing); then each field in turn, and one the door does not know (named from a fixed seed),
// takes every hostile value. Nothing may answer 500 or fail to answer, no worker may die, and
// every log line is the logger's JSON at info.
import { describe, expect, it } from "vitest";
import { DEFAULT_ADMIN } from "#server/config";
import { builtStoreForFile } from "../setup/built-store-fixture";
import { answeringPids, sendRaw, type RawAnswer } from "../setup/raw-http";
import { cookiesOf, failuresOf, loudLines, seeded } from "../setup/fuzz";

const built = builtStoreForFile("one-field-fuzz");

function json(method: string, pathname: string, body: unknown, cookie = ""): Promise<RawAnswer> {
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json" };
  if (cookie) headers.Cookie = cookie;
  return sendRaw(built.store.baseUrl, method, pathname, headers, typeof body === "string" ? body : JSON.stringify(body));
}

const HOSTILE: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  -0.0001,
  1e308,
  2 ** 31,
  2 ** 53 + 7,
  "",
  " ",
  "-1",
  "1e400",
  "NaN",
  "%",
  "\u0000",
  "\ud800",
  "a".repeat(5000),
  "<img src=x onerror=alert(1)>",
  "'; DROP TABLE orders;--",
  "2026-02-30",
  "+275760-09-13T00:00:00.000Z",
  "../../etc/passwd",
  `${"a".repeat(300)}@example.com`,
  "\u202e",
  [],
  [1, 2],
  [{}],
  {},
  { a: 1 },
];
const EXTRA_KEYS = ["__proto__", "constructor", "id", "isAdmin", "role", "status", "paid", "price", "total"];

type Path = (string | number)[];

/** Every field of a template, at any depth (the whole body included), and one unknown key per object. */
function fieldsOf(template: unknown, pick: ReturnType<typeof seeded>["pick"]): { path: Path; added?: boolean }[] {
  const fields: { path: Path; added?: boolean }[] = [];
  const walk = (value: unknown, at: Path) => {
    if (value && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) walk(inner, [...at, Array.isArray(value) ? Number(key) : key]);
      if (!Array.isArray(value)) fields.push({ path: [...at, pick(EXTRA_KEYS)], added: true });
    }
    fields.push({ path: at });
  };
  walk(template, []);
  return fields;
}

/** The template's JSON with the value at `at` replaced (an added `__proto__` written as a key of its own). */
function withField(template: unknown, at: Path, value: unknown): string {
  if (at.length === 0) return JSON.stringify(value) ?? "null";
  const copy = structuredClone(template) as Record<string | number, unknown>;
  let node = copy;
  for (const key of at.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = at[at.length - 1]!;
  if (last === "__proto__") {
    const text = JSON.stringify(copy);
    return at.length === 1 ? text.replace(/^\{/, `{"__proto__":${JSON.stringify(value) ?? "null"}${text === "{}" ? "" : ","}`) : text;
  }
  node[last] = value;
  return JSON.stringify(copy);
}

interface Template {
  method: string;
  path: string;
  body: unknown;
  who: "admin" | "shopper" | "stranger";
  /** How the door answers the template as it is. */
  status: number;
}

describe("one field at a time made hostile", () => {
  it("answers every request below 500, keeps both workers and writes no line above info", async () => {
    const login = await json("POST", "/api/login", DEFAULT_ADMIN);
    expect(login.status).toBe(200);
    const admin = cookiesOf(login);
    const made = await json(
      "POST",
      "/api/admin/products",
      {
        name: "Fuzz Tee",
        description: "A tee for the fuzz.",
        price: 40,
        sizes: [
          { label: "S", inventory: 50 },
          { label: "M", inventory: 50 },
        ],
      },
      admin,
    );
    expect(made.status, made.body).toBe(201);
    const sized = (JSON.parse(made.body) as { id: number }).id;
    const plainMade = await json(
      "POST",
      "/api/admin/products",
      { name: "Fuzz Cap", description: "A cap for the fuzz.", price: 20, inventory: 500 },
      admin,
    );
    expect(plainMade.status, plainMade.body).toBe(201);
    const plain = (JSON.parse(plainMade.body) as { id: number }).id;
    const bag = await json("POST", "/api/cart", { productId: plain, quantity: 1 });
    expect(bag.status, bag.body).toBe(201);
    const shopper = cookiesOf(bag);

    const customerInfo = {
      email: "bea@example.com",
      name: "Bea Buyer",
      phone: "",
      street: "5 Elm St",
      city: "Austin",
      state: "TX",
      zipCode: "73301",
      country: "US",
    };
    const address = { street: "5 Elm St", city: "Austin", state: "TX", zipCode: "73301", country: "US" };
    const open = new Date(Date.now() + 86_400_000).toISOString();
    const close = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const templates: Template[] = [
      { method: "POST", path: "/api/cart", body: { productId: sized, quantity: 1, size: "S" }, who: "shopper", status: 201 },
      { method: "PATCH", path: `/api/cart/${plain}`, body: { quantity: 2 }, who: "shopper", status: 200 },
      { method: "POST", path: "/api/shipping/calculate", body: { address, packageWeight: 1 }, who: "shopper", status: 200 },
      { method: "POST", path: "/api/calculate-tax", body: { state: "TX", country: "US", subtotal: 35 }, who: "shopper", status: 200 },
      {
        method: "POST",
        path: "/api/process-order",
        body: { customerInfo, shippingMethod: "usps-ground_saver", shippingCost: 5.95 },
        who: "shopper",
        status: 201,
      },
      { method: "POST", path: "/api/subscribe", body: { email: "fan@example.com" }, who: "stranger", status: 201 },
      {
        method: "POST",
        path: "/api/support/contact",
        body: { name: "Sam", email: "sam@example.com", subject: "About my order", message: "A message long enough to send." },
        who: "stranger",
        status: 201,
      },
      {
        method: "POST",
        path: "/api/register",
        body: { username: "newbie", email: "newbie@example.com", password: "a-long-password" },
        who: "stranger",
        status: 201,
      },
      { method: "POST", path: "/api/orders/lookup", body: { email: "bea@example.com", orderNumber: "1" }, who: "stranger", status: 202 },
      {
        method: "POST",
        path: "/api/admin/products",
        body: {
          name: "Made",
          description: "Made by the fuzz.",
          price: 10,
          sizes: [{ label: "S", inventory: 1 }],
          discountPercent: 0,
          isComingSoon: false,
          releaseDate: null,
        },
        who: "admin",
        status: 201,
      },
      {
        method: "PATCH",
        path: `/api/admin/products/${sized}`,
        body: {
          name: "Renamed Tee",
          price: 41,
          sizes: [
            { label: "S", inventory: 5 },
            { label: "M", inventory: 5 },
          ],
          colors: ["Black"],
        },
        who: "admin",
        status: 200,
      },
      {
        method: "POST",
        path: "/api/admin/draws",
        body: { productId: sized, entriesOpenAt: open, entriesCloseAt: close, claimMinutes: 60, units: { S: 1, M: 1 } },
        who: "admin",
        status: 201,
      },
      { method: "PATCH", path: "/api/admin/waiting-room", body: { admitPerMinute: 6000, paused: false }, who: "admin", status: 200 },
      { method: "POST", path: "/api/admin/early-access", body: { email: "fan@example.com" }, who: "admin", status: 201 },
      { method: "PUT", path: "/api/admin/early-access/settings", body: { earlyMinutes: 10 }, who: "admin", status: 200 },
      { method: "POST", path: "/api/admin/settings", body: { key: "countdown_date", value: open }, who: "admin", status: 200 },
      { method: "POST", path: "/api/admin/homepage-tagline", body: { text: "Drop day" }, who: "admin", status: 200 },
      {
        method: "POST",
        path: "/api/admin/send-email",
        body: { subject: "Hi", htmlContent: "<p>Hello</p>" },
        who: "admin",
        status: 200,
      },
      { method: "PATCH", path: "/api/admin/orders/1/status", body: { status: "shipped" }, who: "admin", status: 200 },
      {
        method: "POST",
        path: "/api/admin/change-password",
        body: { currentPassword: "not-the-password", newPassword: "another-long-one" },
        who: "admin",
        status: 400,
      },
      {
        method: "POST",
        path: "/api/trpc/admin.products.create",
        body: { name: "Tee", description: "Made through tRPC.", price: 1, inventory: 1 },
        who: "admin",
        status: 200,
      },
      { method: "POST", path: "/api/trpc/admin.settings.setText", body: { key: "homepage_tagline", text: "x" }, who: "admin", status: 200 },
      { method: "POST", path: "/api/trpc/admin.waitingRoom.update", body: { admitPerMinute: 100 }, who: "admin", status: 200 },
      { method: "POST", path: "/api/trpc/admin.orders.setStatus", body: { id: 1, status: "delivered" }, who: "admin", status: 200 },
      { method: "POST", path: "/api/trpc/admin.earlyAccess.setMinutes", body: { earlyMinutes: 5 }, who: "admin", status: 200 },
    ];

    const before = await answeringPids(built.store.baseUrl, 2);
    expect(before.size).toBe(2);
    const cookieOf = (who: Template["who"]) => (who === "admin" ? admin : who === "shopper" ? shopper : "");
    const asIs: string[] = [];
    const { pick } = seeded(24_212);
    let sent = 0;
    const failed: string[] = [];
    for (const template of templates) {
      const good = await json(template.method, template.path, template.body, cookieOf(template.who));
      if (good.status !== template.status) asIs.push(`${template.method} ${template.path}: ${good.status} ${good.body.slice(0, 200)}`);
      const bodies = fieldsOf(template.body, pick).flatMap(({ path: at }) => HOSTILE.map((value) => withField(template.body, at, value)));
      const headers = {
        "Content-Type": "application/json",
        Accept: "application/json",
        ...(template.who === "stranger" ? {} : { Cookie: cookieOf(template.who) }),
      };
      const hostile = bodies.map((body) => ({ method: template.method, path: template.path, headers, body }));
      // Door by door, each after its good request: the templates build on each other.
      failed.push(...(await failuresOf(built.store.baseUrl, hostile)));
      sent += hostile.length;
    }
    expect(asIs).toEqual([]);
    expect(sent).toBeGreaterThan(3000);
    expect(failed).toEqual([]);
    const after = await answeringPids(built.store.baseUrl, 2, 5_000);
    expect([...after].sort()).toEqual([...before].sort());
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(loudLines(built.store.log())).toEqual([]);
  }, 240_000);
});
