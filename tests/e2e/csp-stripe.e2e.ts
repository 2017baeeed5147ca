// Issue 15 part 4, the Stripe half of the CSP walk (decision 0028): with Stripe configured, the
// checkout loads Stripe.js and the Payment Element under the policy with no violation and no
// report, and Stripe's hosts are in the policy only then. This file starts its own store in Stripe
// mode (fake keys; the store's Stripe SDK talks to msw in that process, tests/e2e/support/fake-stripe.ts).
// This machine cannot reach Stripe, so the browser's Stripe hosts are routed to stand-ins: Stripe.js
// is tests/e2e/support/stripe-js-stub.js, its frames small pages, api.stripe.com the fake server.
// The stand-in loads what Stripe.js loads from the buyer's page (script, frames, one API call), so
// a host missing from the policy fails here; what Stripe's own frames load is under their own policy.
import assert from "node:assert/strict";
import path from "node:path";
import { after, before } from "node:test";
import type { BrowserContext, Page } from "playwright-core";
import { BASE_URL, describe, expectVisible, fillCheckoutDetails, newPage, test } from "./browser";
import { adminApi, createProduct, uniqueName } from "./support/data";
import { freePort, startStore, type StoreProcess } from "./support/store-process";

const ADMIN = { username: "e2e-csp-stripe-admin", password: "e2e-csp-stripe-password" };
const STRIPE_HOSTS = ["js.stripe.com", "api.stripe.com", "m.stripe.network"];
const STUB = path.join(import.meta.dirname, "support/stripe-js-stub.js");
let store: StoreProcess | undefined;
let baseURL: string;
let stripePort: number;

before(async () => {
  stripePort = await freePort();
  store = await startStore({
    name: "e2e-csp-stripe",
    nodeArgs: ["--import", "tsx", "--import", "./tests/e2e/support/fake-stripe.ts"],
    env: {
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      STRIPE_SECRET_KEY: "sk_test_e2e_csp",
      STRIPE_PUBLISHABLE_KEY: "pk_test_e2e_csp",
      STRIPE_WEBHOOK_SECRET: "whsec_e2e_csp",
      FAKE_STRIPE_PORT: String(stripePort),
      CHECKOUTS_PER_IP: "1000",
    },
  });
  baseURL = store.baseUrl;
});

after(() => store?.stop());

// What decision 0028 adds with Stripe, directive by directive.
const WITH_STRIPE: Record<string, string> = {
  "script-src": "'strict-dynamic' 'self' https://js.stripe.com https://*.js.stripe.com",
  "img-src": "'self' data: blob: https://*.stripe.com",
  "connect-src": "'self' https://api.stripe.com https://m.stripe.network https://*.js.stripe.com",
  "frame-src": "https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com https://m.stripe.network",
  "form-action": "'self' https://checkout.stripe.com",
};

function directives(policy: string): Map<string, string> {
  return new Map(
    policy.split("; ").map((directive) => {
      const [name = "", ...values] = directive.split(" ");
      return [name, values.join(" ")];
    }),
  );
}

/** Routes the browser's Stripe hosts to the stand-ins; returns what was asked of them. */
async function standInStripe(context: BrowserContext): Promise<{ served: string[]; unexpected: string[] }> {
  const served: string[] = [];
  const unexpected: string[] = [];
  const page = (body: string) => ({ status: 200, contentType: "text/html; charset=utf-8", body });
  await context.route("https://js.stripe.com/**", async (route) => {
    const url = new URL(route.request().url());
    served.push(`${url.origin}${url.pathname}`);
    if (url.pathname === "/basil/stripe.js") return route.fulfill({ status: 200, contentType: "text/javascript", path: STUB });
    if (url.pathname.startsWith("/v3/controller-")) return route.fulfill(page("<!doctype html><title>controller</title>"));
    if (url.pathname.startsWith("/v3/elements-inner-payment-")) {
      return route.fulfill(
        page(
          `<!doctype html><title>Payment</title><form>` +
            `<label>Card number <input name="number" autocomplete="cc-number"></label>` +
            `<label>Expiration date <input name="expiry" autocomplete="cc-exp"></label>` +
            `<label>Security code <input name="cvc" autocomplete="cc-csc"></label></form>`,
        ),
      );
    }
    unexpected.push(url.href);
    return route.fulfill({ status: 404, body: "" });
  });
  await context.route("https://m.stripe.network/**", async (route) => {
    const url = new URL(route.request().url());
    served.push(`${url.origin}${url.pathname}`);
    return route.fulfill(page("<!doctype html><title>m</title>"));
  });
  await context.route("https://api.stripe.com/**", async (route) => {
    const url = new URL(route.request().url());
    served.push(`${url.origin}${url.pathname}`);
    const response = await route.fetch({ url: `http://127.0.0.1:${stripePort}${url.pathname}` });
    return route.fulfill({ response });
  });
  return { served, unexpected };
}

/** A page whose every frame reports its CSP violations, and which notes every report posted to the store. */
async function watchedPage() {
  const opened = await newPage({ baseURL, allowHosts: STRIPE_HOSTS });
  const violations: string[] = [];
  const reports: string[] = [];
  await opened.context.exposeBinding("__cspViolation", ({ frame }, text: string) => {
    violations.push(`${frame.url()}: ${text}`);
  });
  await opened.context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { __cspViolation: (text: string) => void }).__cspViolation(
        `${event.effectiveDirective} blocked ${event.blockedURI} (${event.sourceFile}:${event.lineNumber}) ${event.sample}`,
      );
    });
  });
  opened.context.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/csp-report") reports.push(request.postData() ?? "");
  });
  return { ...opened, violations, reports };
}

async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
  // Violation events and report posts come asynchronously after the load.
  await page.waitForTimeout(300);
}

describe("Content-Security-Policy with Stripe configured, in Chromium", () => {
  test("Stripe's hosts are in the policy of the Stripe store's pages, and in no page of the store without Stripe", async () => {
    const { context } = await watchedPage();
    for (const url of ["/", "/store", "/cart", "/checkout"]) {
      const withStripe = await context.request.get(new URL(url, baseURL).href);
      assert.equal(withStripe.status(), 200, url);
      const policy = directives(withStripe.headers()["content-security-policy"] ?? "");
      for (const [name, values] of Object.entries(WITH_STRIPE)) {
        assert.ok(policy.get(name)?.endsWith(values), `${url} with Stripe: ${name} ${policy.get(name)}`);
      }
      assert.equal(
        withStripe.headers()["permissions-policy"],
        `camera=(), microphone=(), geolocation=(), usb=(), payment=(self "https://js.stripe.com")`,
      );

      const without = await context.request.get(new URL(url, BASE_URL).href);
      assert.equal(without.status(), 200, url);
      const plain = without.headers()["content-security-policy"] ?? "";
      assert.match(plain, /^default-src 'self'; script-src 'nonce-/, url);
      assert.doesNotMatch(plain, /stripe/, `${url} without Stripe: ${plain}`);
      assert.ok(!directives(plain).has("frame-src"), `${url} without Stripe has no frame-src`);
      assert.equal(without.headers()["permissions-policy"], "camera=(), microphone=(), geolocation=(), usb=(), payment=()");
    }
  });

  test("the recorder sees a frame and a connection to Stripe hosts outside the policy (so a clean walk means something)", async () => {
    const { page, violations, reports, problems } = await watchedPage();
    await page.goto("/store");
    await page.waitForLoadState("networkidle");
    const reported = page.waitForRequest((request) => request.url().endsWith("/api/csp-report"), { timeout: 5_000 }).catch(() => null);
    // Two Stripe hosts decision 0028 does not list: a frame and a connection to them are blocked and seen.
    await page.evaluate(async () => {
      const frame = document.createElement("iframe");
      frame.src = "https://b.stripecdn.com/hcaptcha-stub.html";
      document.body.append(frame);
      await fetch("https://r.stripe.com/b", { method: "POST", body: "{}" }).catch(() => undefined);
    });
    await settle(page);
    assert.equal(violations.length, 2, violations.join("\n"));
    assert.ok(
      violations.some((v) => /frame-src blocked https:\/\/b\.stripecdn\.com/.test(v)),
      violations.join("\n"),
    );
    assert.ok(
      violations.some((v) => /connect-src blocked https:\/\/r\.stripe\.com\/b/.test(v)),
      violations.join("\n"),
    );
    assert.ok(
      problems.some((p) => p.includes("Content Security Policy")),
      problems.join("\n"),
    );
    // Chromium posts report-uri reports as they happen (report-to ones when it batches them).
    if (await reported) assert.ok(reports.length >= 1);
  });

  test("the checkout walk with Stripe.js and the Payment Element: no violation, no report, paid", async () => {
    const cap = await createProduct(await adminApi({ baseURL, ...ADMIN }), {
      name: uniqueName("E2E CSP Stripe Cap"),
      price: 32,
      weight: 0.3,
    });
    const { page, context, problems, violations, reports } = await watchedPage();
    const stripe = await standInStripe(context);

    await page.goto("/store");
    await page.getByTestId("product-card").filter({ hasText: cap.name }).click();
    await page.waitForURL(/\/store\/\d+$/);
    await page.locator('[data-testid="cart-button"][data-hydrated]').waitFor({ state: "attached" });
    await page.getByRole("button", { name: "Add To Bag" }).click();
    await expectVisible(page.getByTestId("add-to-bag-result").getByText(/is in your bag/));

    const checkout = await page.goto("/checkout");
    const nonce = /'nonce-([A-Za-z0-9+/]{24})'/.exec((await checkout?.allHeaders())?.["content-security-policy"] ?? "")?.[1];
    assert.ok(nonce, "the checkout's policy has a nonce");
    await page.locator('[data-testid="cart-button"][data-hydrated]').waitFor({ state: "attached" });
    // Stripe.js is fetched only at the payment step (decision 0028, the /pure entry).
    assert.deepEqual(stripe.served, []);
    await fillCheckoutDetails(page, { email: "csp-stripe@example.com", name: "Cass Stripe" });
    await expectVisible(page.getByTestId("shipping-rate"));
    await page.getByRole("button", { name: /^Process Order - \$\d/ }).click();

    // The Payment Element: Stripe.js loaded through 'strict-dynamic', its frame from js.stripe.com.
    await expectVisible(page.getByTestId("payment-form"));
    // Going into the card fields' frame and back is not the shopper coming back to the tab: no
    // look at the bag then (it raced the payment's own and was aborted: an error in the console).
    const fromHere: string[] = [];
    page.on("request", (request) => {
      const path = new URL(request.url()).pathname;
      if (path === "/checkout.data" || path === "/api/confirm-order") fromHere.push(`${request.method()} ${path}`);
    });
    const element = page.frameLocator('iframe[title="Secure payment input frame"]');
    await element.getByLabel("Card number").fill("4242 4242 4242 4242");
    await element.getByLabel("Expiration date").fill("12 / 34");
    await element.getByLabel("Security code").fill("123");
    const scripts = await page.evaluate(() =>
      [...document.scripts].map((script) => ({ src: script.src, nonce: script.nonce ?? "", type: script.type })),
    );
    const stripeScript = scripts.find((script) => script.src.startsWith("https://js.stripe.com/"));
    assert.equal(stripeScript?.src, "https://js.stripe.com/basil/stripe.js");
    // loadStripe adds its script without a nonce: 'strict-dynamic' trusts it because a script with
    // this answer's nonce inserted it (the host list is for CSP-2 browsers). Every other script
    // carries this answer's nonce.
    for (const script of scripts.filter((s) => s !== stripeScript && s.type !== "application/json")) {
      assert.equal(script.nonce, nonce, `${script.src || "inline script"} has the answer's nonce`);
    }

    const confirmed = page.waitForRequest((request) =>
      /^https:\/\/api\.stripe\.com\/v1\/payment_intents\/pi_\w+\/confirm$/.test(request.url()),
    );
    await page.getByRole("button", { name: /^Complete Order - \$\d/ }).click();
    const intentId = /payment_intents\/(pi_\w+)\/confirm/.exec((await confirmed).url())?.[1];
    await expectVisible(page.getByTestId("payment-success").getByText("Payment Successful!"), 10_000);
    await settle(page);
    assert.equal(fromHere[0], "POST /api/confirm-order", `nothing before the payment's confirmation: ${fromHere.join(", ")}`);

    // Where Stripe returns a buyer after 3-D Secure: the same outcome, under the same policy.
    await page.goto(`/checkout-success?payment_intent=${intentId}&redirect_status=succeeded`);
    await expectVisible(page.getByRole("heading", { name: "Payment Successful!" }));
    await settle(page);

    assert.deepEqual(
      [...new Set(stripe.served)].sort(),
      [
        "https://api.stripe.com/v1/payment_intents/" + intentId + "/confirm",
        "https://js.stripe.com/basil/stripe.js",
        "https://js.stripe.com/v3/controller-stub.html",
        "https://js.stripe.com/v3/elements-inner-payment-stub.html",
        "https://m.stripe.network/inner.html",
      ].sort(),
      "the stand-in reached each Stripe host it plays",
    );
    assert.deepEqual(stripe.unexpected, []);
    assert.deepEqual(violations, []);
    assert.deepEqual(reports, []);
    assert.deepEqual(problems, []);
  });
});
