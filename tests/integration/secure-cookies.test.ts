import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dispatchApi } from "#server/api/dispatch";
import { useAppContextForTests } from "#server/boot";
import { loginAction, loginLoader } from "#server/http/doors/login-door";
import { logoutAction } from "#server/http/doors/logout-door";
import { ensureAdmin, resetLoginLimits } from "#server/services/accounts/users";
import { createTestContext } from "../setup/context";
import { addProduct } from "./store-helpers";

// The store as `npm start` runs it: production, no proxy settings.
const ctx = createTestContext({ NODE_ENV: "production" });

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
});
beforeEach(() => resetLoginLimits(ctx));
afterEach(() => {
  ctx.config.trustProxy = 0;
  ctx.config.publicUrl = null;
});

type Handler = (args: never) => unknown;

/** The API table, called the way the page handlers are. */
const apiTable = ({ request, context }: { request: Request; context: { clientIp: string } }) => dispatchApi(request, context);

/**
 * A browser at one origin: it sends the cookies it kept and, as browsers do, refuses a Secure
 * cookie that arrives over plain http (Chromium exempts localhost, so a LAN address is used).
 */
class Browser {
  readonly cookies = new Map<string, string>();
  readonly setCookies: string[] = [];

  constructor(readonly origin: string) {}

  async send<T = unknown>(
    handler: Handler,
    path: string,
    init: { method?: string; form?: Record<string, string>; json?: unknown; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; location: string | null; data: T }> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set("Cookie", [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    let body: BodyInit | undefined;
    if (init.form) {
      headers.set("Content-Type", "application/x-www-form-urlencoded");
      body = new URLSearchParams(init.form);
    } else if (init.json !== undefined) {
      headers.set("Content-Type", "application/json");
      body = JSON.stringify(init.json);
    }
    const method = init.method ?? (body ? "POST" : "GET");
    const request = new Request(new URL(path, this.origin), { method, headers, body });
    let outcome: unknown;
    try {
      outcome = await (handler as (args: unknown) => unknown)({ request, params: {}, context: { clientIp: "192.168.1.20" } });
    } catch (thrown) {
      outcome = thrown;
    }
    if (!(outcome instanceof Response)) return { status: 200, location: null, data: outcome as T };
    this.keep(outcome);
    const text = await outcome.text();
    return { status: outcome.status, location: outcome.headers.get("Location"), data: (text ? JSON.parse(text) : null) as T };
  }

  private keep(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      this.setCookies.push(header);
      if (/;\s*secure/i.test(header) && !this.origin.startsWith("https:")) continue;
      const [pair = ""] = header.split(";");
      const name = pair.slice(0, pair.indexOf("=")).trim();
      const value = pair.slice(pair.indexOf("=") + 1);
      if (/max-age=0/i.test(header) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** The Set-Cookie headers received for one cookie name. */
  received(name: string): string[] {
    return this.setCookies.filter((header) => header.startsWith(`${name}=`));
  }
}

const isSecure = (header: string | undefined) => /;\s*secure(;|$)/i.test(header ?? "");

/** Signs in through the login form as the page does, then follows the check hop. */
async function signIn(browser: Browser, redirectTo = "/admin/orders") {
  const posted = await browser.send(loginAction, "/admin/login", {
    form: { username: "boss", password: "boss-password", redirectTo },
  });
  expect(posted.status).toBe(302);
  expect(posted.location).toBe(`/admin/login?redirectTo=${encodeURIComponent(redirectTo)}&signedIn=1`);
  const hop = await browser.send<{ signInNotKept: string | null }>(loginLoader, posted.location!);
  return { posted, hop };
}

describe("signing in over plain http at a LAN address, in production", () => {
  it("sets cookies without Secure, so the next request is signed in and sees the spec's toast", async () => {
    const browser = new Browser("http://192.168.1.5:3000");
    const { hop } = await signIn(browser);
    const [session] = browser.received("session");
    expect(session).toMatch(/HttpOnly/i);
    expect(isSecure(session)).toBe(false);

    // The hop found the session and sends the admin on, with "Login successful" in a flash.
    expect(hop.status).toBe(302);
    expect(hop.location).toBe("/admin/orders");
    const [flash] = browser.received("flash");
    expect(isSecure(flash)).toBe(false);
    expect(browser.cookies.has("flash")).toBe(true);

    const me = await browser.send<{ username: string }>(apiTable, "/api/user");
    expect(me.status).toBe(200);
    expect(me.data.username).toBe("boss");
  });

  it("clears the session cookie without Secure too, so signing out works there", async () => {
    const browser = new Browser("http://192.168.1.5:3000");
    await signIn(browser);
    const out = await browser.send(logoutAction, "/logout", { method: "POST" });
    expect(out.status).toBe(302);
    const cleared = browser.received("session").at(-1);
    expect(cleared).toMatch(/Max-Age=0/i);
    expect(isSecure(cleared)).toBe(false);
    expect(browser.cookies.has("session")).toBe(false);
    expect((await browser.send(apiTable, "/api/user")).status).toBe(401);
  });

  it("gives the anonymous cart a cookie the browser keeps", async () => {
    const productId = await addProduct(ctx, { name: "LAN Tee" });
    const browser = new Browser("http://192.168.1.5:3000");
    expect((await browser.send(apiTable, "/api/cart", { json: { productId, quantity: 1 } })).status).toBe(201);
    expect(isSecure(browser.received("cart")[0])).toBe(false);
    const bag = await browser.send<{ cartItems: { productId: number }[] }>(apiTable, "/api/cart");
    expect(bag.data.cartItems.map((line) => line.productId)).toEqual([productId]);
  });
});

describe("Secure cookies", () => {
  it("are Secure when the request came over https", async () => {
    const browser = new Browser("https://shop.example");
    const { hop } = await signIn(browser);
    expect(isSecure(browser.received("session")[0])).toBe(true);
    expect(isSecure(browser.received("flash")[0])).toBe(true);
    expect(hop.location).toBe("/admin/orders");
    expect((await browser.send(apiTable, "/api/user")).status).toBe(200);
  });

  it("are Secure over a plain-http request when PUBLIC_URL is https (TLS ends at a proxy)", async () => {
    ctx.config.publicUrl = "https://shop.example";
    const browser = new Browser("http://127.0.0.1:3000");
    const posted = await browser.send(loginAction, "/auth", {
      form: { username: "boss", password: "boss-password", redirectTo: "/admin" },
    });
    expect(posted.status).toBe(302);
    expect(isSecure(browser.received("session")[0])).toBe(true);
  });

  it("take X-Forwarded-Proto: https only from a trusted proxy", async () => {
    const forwarded = { headers: { "X-Forwarded-Proto": "https" } };
    const untrusted = new Browser("http://10.0.0.2:3000");
    await untrusted.send(apiTable, "/api/cart", { json: { productId: await addProduct(ctx, {}) }, ...forwarded });
    expect(isSecure(untrusted.received("cart")[0])).toBe(false);

    ctx.config.trustProxy = 1;
    const trusted = new Browser("http://10.0.0.2:3000");
    await trusted.send(apiTable, "/api/cart", { json: { productId: await addProduct(ctx, {}) }, ...forwarded });
    expect(isSecure(trusted.received("cart")[0])).toBe(true);
  });
});

describe("a sign-in the browser could not keep", () => {
  it("is explained on the sign-in page, with the https address to use instead", async () => {
    ctx.config.publicUrl = "https://shop.example";
    const browser = new Browser("http://192.168.1.5:3000");
    const { hop } = await signIn(browser, "/admin");
    // The browser refused the Secure cookie: the hop arrives signed out and says why.
    expect(browser.cookies.has("session")).toBe(false);
    expect(hop.status).toBe(200);
    expect(hop.data.signInNotKept).toBe(
      "Your password was right, but this browser did not keep the sign-in: this page was opened over plain http://, and the " +
        "store's sign-in cookie only travels over https://. Sign in at https://shop.example/admin/login instead.",
    );
  });

  it("says to allow cookies when the browser refused them for another reason", async () => {
    const browser = new Browser("https://shop.example");
    const hop = await browser.send<{ signInNotKept: string | null }>(loginLoader, "/auth?redirectTo=%2Fadmin&signedIn=1");
    expect(hop.data.signInNotKept).toBe(
      "Your password was right, but this browser did not keep the sign-in cookie. Allow cookies for this site and sign in again.",
    );
  });

  it("is not mentioned on an ordinary visit to the sign-in page", async () => {
    ctx.config.publicUrl = "https://shop.example";
    const browser = new Browser("http://192.168.1.5:3000");
    const page = await browser.send<{ signInNotKept: string | null }>(loginLoader, "/auth");
    expect(page.data.signInNotKept).toBeNull();
  });
});
