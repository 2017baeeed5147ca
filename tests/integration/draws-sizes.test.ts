// Issue 26 (decision 0047) for a product with sizes: the entrant enters for a size (the REST door
// and the page's form without JavaScript), units are drawn per size down the drawn order, a lapsed
// winner's unit passes to the next entrant of that size, and a winner's claim puts the won size in
// the bag, whose checkout takes that size's stock and no other.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as drawRoute from "#app/routes/draws.$id";
import * as productRoute from "#app/routes/store.$productId";
import { useAppContextForTests } from "#server/boot";
import type { AdminProduct } from "#server/contracts/admin-products";
import type { CartView } from "#server/contracts/cart";
import type { DrawPageData } from "#server/http/doors/draw-door";
import { drawEntryAction } from "#server/http/doors/draw-door";
import { cartSessionIdOf } from "#server/http/cart-session";
import { ensureAdmin } from "#server/services/accounts/users";
import { claimDrawUnit } from "#server/services/drop/draw-claims";
import { confirmDrawEntry, resetDrawEntryLimits } from "#server/services/drop/draw-entries";
import { chainOf, emailHashOf, runDraw, verifyProof } from "#server/services/drop/draw-math";
import { drawNow, passDownLapsedClaims } from "#server/services/drop/draw-run";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { addProduct, runRoute } from "./store-helpers";

const ctx = createTestContext();
const admin = new CookieJar();
const NOW = "2026-06-01T12:00:00.000Z";
const OPEN = "2026-06-01T13:00:00.000Z";
const CLOSE = "2026-06-01T14:00:00.000Z";
const AFTER = "2026-06-01T14:00:01.000Z";
let made = 0;

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "sized-boss", password: "sized-boss-password", email: "sized-boss@example.com" });
  await api("POST", "/api/login", { body: { username: "sized-boss", password: "sized-boss-password" }, jar: admin });
});
beforeEach(async () => {
  ctx.clock.set(NOW);
  await resetDrawEntryLimits(ctx);
});

/** A product in S, M and L (1, 2 and 3 in stock), made as the admin makes one. */
async function sizedProduct(body: Record<string, unknown> = {}): Promise<AdminProduct> {
  const response = await api("POST", "/api/admin/products", {
    jar: admin,
    body: {
      name: `Drawn Tee ${++made}`,
      description: "A piece sold by draw, in sizes.",
      price: 60,
      sizes: [
        { label: "S", inventory: 1 },
        { label: "M", inventory: 2 },
        { label: "L", inventory: 3 },
      ],
      ...body,
    },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as AdminProduct;
}

const createDraw = (productId: number, units?: unknown) =>
  api("POST", "/api/admin/draws", { jar: admin, body: { productId, entriesOpenAt: OPEN, entriesCloseAt: CLOSE, claimMinutes: 60, units } });

async function sizedDraw(units?: Record<string, number>, body?: Record<string, unknown>) {
  const product = await sizedProduct(body);
  const response = await createDraw(product.id, units);
  expect(response.status).toBe(201);
  return { product, draw: (await response.json()) as { id: number; commitment: string; units: Record<string, number> } };
}

const mailsTo = (email: string) =>
  ctx.db.selectFrom("mailMessages").select(["subject", "htmlBody", "tag"]).where("toAddress", "=", email).orderBy("id").execute();
const confirmTokenOf = (html: string) => /\/draws\/\d+\/confirm\/([^"]+)"/.exec(html)?.[1];
const claimTokenOf = (html: string) => /\/draws\/\d+\/claim\/([^"]+)"/.exec(html)?.[1];

async function enterAndConfirm(drawId: number, email: string, size: string) {
  const response = await api("POST", `/api/draws/${drawId}/entries`, { body: { email, size } });
  expect(response.status).toBe(202);
  const mail = (await mailsTo(email)).find((m) => m.tag === "draw-confirm")!;
  return confirmDrawEntry(ctx, drawId, confirmTokenOf(mail.htmlBody)!);
}

async function bagOf(jar: CookieJar): Promise<string> {
  const other = await addProduct(ctx, { name: "Sticker", inventory: 100 });
  expect((await api("POST", "/api/cart", { body: { productId: other }, jar })).status).toBe(201);
  await api("DELETE", `/api/cart/${other}`, { jar });
  return (await cartSessionIdOf(ctx, new Request("http://localhost/", { headers: { Cookie: jar.header() } })))!;
}

const sizeStock = async (productId: number) =>
  Object.fromEntries(
    (await ctx.db.selectFrom("productSizes").select(["label", "inventory"]).where("productId", "=", productId).execute()).map((r) => [
      r.label,
      r.inventory,
    ]),
  );

describe("a draw for a product with sizes", () => {
  it("gives each size's stock by default, takes units per size, and refuses more than a size has", async () => {
    const { draw } = await sizedDraw();
    expect(draw.units).toEqual({ S: 1, M: 2, L: 3 });
    expect(await (await api("GET", `/api/draws/${draw.id}`)).json()).toMatchObject({ sizes: ["S", "M", "L"] });

    const { draw: given } = await sizedDraw({ s: 1, M: 1 });
    expect(given.units).toEqual({ S: 1, M: 1, L: 0 });

    const product = await sizedProduct();
    const tooMany = await createDraw(product.id, { M: 3 });
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).message).toBe("Units for size M must not exceed its stock (2).");
    const unknown = await createDraw(product.id, { XL: 1 });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).message).toBe("Units must be whole numbers from 0, for the product's sizes.");
    expect(await ctx.db.selectFrom("draws").select("id").where("productId", "=", product.id).execute()).toEqual([]);
  });

  it("offers only the sizes the draw gives units of, a size added to the product later included", async () => {
    const { product, draw } = await sizedDraw({ S: 1, M: 1 });
    const edited = await api("PATCH", `/api/admin/products/${product.id}`, {
      jar: admin,
      body: {
        name: product.name,
        description: product.description,
        price: 60,
        sizes: [
          { label: "S", inventory: 1 },
          { label: "M", inventory: 2 },
          { label: "L", inventory: 3 },
          { label: "XL", inventory: 4 },
        ],
      },
    });
    expect(edited.status).toBe(200);
    expect(await (await api("GET", `/api/draws/${draw.id}`)).json()).toMatchObject({ sizes: ["S", "M"] });

    ctx.clock.set(OPEN);
    for (const size of ["L", "XL"]) {
      const refused = await api("POST", `/api/draws/${draw.id}/entries`, { body: { email: `${size}@example.com`, size } });
      expect(refused.status).toBe(400);
      expect((await refused.json()).message).toBe(`Size ${size} is not available for ${product.name}.`);
    }
    const taken = await api("POST", `/api/draws/${draw.id}/entries`, { body: { email: "m@example.com", size: "m" } });
    expect(taken.status).toBe(202);
    expect(await ctx.db.selectFrom("drawEntries").select("size").where("drawId", "=", draw.id).execute()).toEqual([{ size: "M" }]);
  });

  it("takes an entry only for a size the product offers, with a clear message otherwise", async () => {
    const { product, draw } = await sizedDraw();
    ctx.clock.set(OPEN);
    const none = await api("POST", `/api/draws/${draw.id}/entries`, { body: { email: "nosize@example.com" } });
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual({ message: "Please choose a size.", errors: { size: ["Please choose a size."] } });
    const xl = await api("POST", `/api/draws/${draw.id}/entries`, { body: { email: "xl@example.com", size: "XL" } });
    expect(xl.status).toBe(400);
    expect((await xl.json()).message).toBe(`Size XL is not available for ${product.name}.`);

    // The page's form, as a browser without JavaScript posts it.
    const page = (form: Record<string, string>) =>
      runRoute<DrawPageData>(drawEntryAction, { path: `/draws/${draw.id}`, form, params: { id: String(draw.id) } });
    const blank = await page({ email: "form@example.com", size: "" });
    expect(blank.status).toBe(400);
    expect(blank.data.entered).toMatchObject({ ok: false, fields: { size: ["Please choose a size."] } });
    const wrong = await page({ email: "form@example.com", size: "XXL" });
    expect(wrong.data.entered).toMatchObject({ ok: false, message: `Size XXL is not available for ${product.name}.` });
    expect(await ctx.db.selectFrom("drawEntries").select("id").where("drawId", "=", draw.id).execute()).toEqual([]);

    const ok = await page({ email: "form@example.com", size: "m" });
    expect(ok.status).toBe(202);
    expect(ok.data.entered).toEqual({ ok: true, message: "Check your e-mail to confirm your entry." });
    const [mail] = await mailsTo("form@example.com");
    expect(mail!.htmlBody).toContain("in size M");
    const receipt = (await confirmDrawEntry(ctx, draw.id, confirmTokenOf(mail!.htmlBody)!)).receipt!;
    const emailHash = emailHashOf(draw.id, "form@example.com");
    expect(receipt.chain).toBe(chainOf(draw.commitment, [{ n: 1, emailHash, size: "M" }]));
  });

  it("draws units per size down the order, passes a lapsed unit within its size, and sells the won size", async () => {
    const { product, draw } = await sizedDraw({ S: 1, M: 1 });
    ctx.clock.set(OPEN);
    const entrants = [
      ["s1@example.com", "S"],
      ["m1@example.com", "M"],
      ["s2@example.com", "S"],
      ["m2@example.com", "M"],
      ["m3@example.com", "M"],
    ] as const;
    for (const [email, size] of entrants) await enterAndConfirm(draw.id, email, size);
    ctx.clock.set(AFTER);
    expect(await drawNow(ctx, draw.id, "beacon-7")).toBe(true);

    const proof = await (await api("GET", `/api/draws/${draw.id}/proof`)).json();
    const seed = (await ctx.db.selectFrom("draws").select("seed").where("id", "=", draw.id).executeTakeFirstOrThrow()).seed;
    expect(proof.entries).toEqual(entrants.map(([email, size], i) => ({ n: i + 1, emailHash: emailHashOf(draw.id, email), size })));
    const expected = runDraw({
      seedHex: seed,
      commitment: draw.commitment,
      beacon: "beacon-7",
      entries: proof.entries,
      units: { S: 1, M: 1, L: 0 },
    });
    expect(proof.winners).toEqual(expected.winners);
    expect(verifyProof(proof)).toEqual({ ok: true, problems: [] });
    // One winner per size: the first of each size in the drawn order.
    const sizeOf = (n: number) => entrants[n - 1]![1];
    const firstOf = (size: string) => proof.order.find((n: number) => sizeOf(n) === size);
    expect([...proof.winners].sort()).toEqual([firstOf("S"), firstOf("M")].sort());
    const detail = await (await api("GET", `/api/admin/draws/${draw.id}`, { jar: admin })).json();
    expect(detail.perSize).toEqual([
      { size: "S", units: 1, entries: 2, confirmed: 2, winners: 1, claimed: 0, paid: 0 },
      { size: "M", units: 1, entries: 3, confirmed: 3, winners: 1, claimed: 0, paid: 0 },
      { size: "L", units: 0, entries: 0, confirmed: 0, winners: 0, claimed: 0, paid: 0 },
    ]);

    // Neither winner buys: after the hour each unit passes to the next entrant of its own size.
    const emailOf = (n: number) => entrants[n - 1]![0];
    const inOrder = (size: string) => proof.order.filter((n: number) => sizeOf(n) === size).map(emailOf);
    const [sWinner, sNext] = inOrder("S");
    const [mWinner, mNext, mLast] = inOrder("M");
    ctx.clock.set("2026-06-01T15:00:02.000Z");
    expect(await passDownLapsedClaims(ctx)).toBe(2);
    const tags = async (email: string) => (await mailsTo(email)).map((m) => m.tag);
    expect(await tags(sWinner!)).toEqual(["draw-confirm", "draw-won"]);
    expect(await tags(mWinner!)).toEqual(["draw-confirm", "draw-won"]);
    expect(await tags(sNext!)).toEqual(["draw-confirm", "draw-not-picked", "draw-won"]);
    expect(await tags(mNext!)).toEqual(["draw-confirm", "draw-not-picked", "draw-won"]);
    expect(await tags(mLast!)).toEqual(["draw-confirm", "draw-not-picked"]);

    // The next S entrant claims: the bag holds one S, and checkout takes it off the S shelf only.
    const jar = new CookieJar();
    const bagId = await bagOf(jar);
    const won = (await mailsTo(sNext!)).at(-1)!;
    expect(won.htmlBody).toContain("(size S)");
    await claimDrawUnit(ctx, draw.id, claimTokenOf(won.htmlBody)!, bagId);
    const cart = (await (await api("GET", "/api/cart", { jar })).json()) as CartView;
    expect(cart.cartItems.map((item) => ({ productId: item.productId, size: item.size, quantity: item.quantity }))).toEqual([
      { productId: product.id, size: "S", quantity: 1 },
    ]);
    expect(await sizeStock(product.id)).toEqual({ S: 1, M: 2, L: 3 });
    const processed = await api("POST", "/api/process-order", {
      jar,
      body: {
        customerInfo: {
          email: sNext!,
          name: "Small Winner",
          phone: "",
          street: "5 Elm St",
          city: "Austin",
          state: "TX",
          zipCode: "73301",
          country: "US",
        },
        shippingMethod: "usps-ground_saver",
      },
    });
    expect(processed.status).toBe(201);
    expect(await sizeStock(product.id)).toEqual({ S: 0, M: 2, L: 3 });
    const { orderSummary } = await processed.json();
    const items = await ctx.db
      .selectFrom("orderItems")
      .select(["productId", "size", "quantity"])
      .where("orderId", "=", orderSummary.orderId)
      .execute();
    expect(items).toEqual([{ productId: product.id, size: "S", quantity: 1 }]);
  });

  it("puts a colour in stock in the won size in the bag of a product kept per colour", async () => {
    const product = await sizedProduct({
      sizes: [{ label: "M" }],
      availableColors: ["Black", "Ecru"],
      stockPerColor: true,
      variants: [
        { size: "M", color: "Black", inventory: 0 },
        { size: "M", color: "Ecru", inventory: 1 },
      ],
    });
    const response = await createDraw(product.id);
    expect(response.status).toBe(201);
    const draw = (await response.json()) as { id: number; units: Record<string, number> };
    expect(draw.units).toEqual({ M: 1 });
    ctx.clock.set(OPEN);
    await enterAndConfirm(draw.id, "ecru@example.com", "M");
    ctx.clock.set(AFTER);
    await drawNow(ctx, draw.id, "");
    const jar = new CookieJar();
    const bagId = await bagOf(jar);
    await claimDrawUnit(ctx, draw.id, claimTokenOf((await mailsTo("ecru@example.com")).at(-1)!.htmlBody)!, bagId);
    const line = await ctx.db.selectFrom("cartItems").select(["size", "color", "quantity"]).where("sessionId", "=", bagId).execute();
    expect(line).toEqual([{ size: "M", color: "Ecru", quantity: 1 }]);
  });
});

/**
 * A page as the server sends it (so as a browser without JavaScript shows it): the loader's (or the
 * action's) data, then the route's component, with the browser's clock at `at` (the draw panel reads it).
 */
async function pageHtml(data: object, path: string, route: string, Component: () => React.ReactNode, at: string): Promise<string> {
  const handler = createStaticHandler([{ id: "page", path: route, loader: () => data, Component }]);
  const context = await handler.query(new Request(`http://localhost${path}`));
  if (context instanceof Response) throw new Error(`${path} answered ${context.status}`);
  vi.useFakeTimers({ toFake: ["Date"], now: Date.parse(at) });
  try {
    return renderToStaticMarkup(createElement(StaticRouterProvider, { router: createStaticRouter(handler.dataRoutes, context), context }));
  } finally {
    vi.useRealTimers();
  }
}

async function productPageHtml(productId: number, at: string): Promise<string> {
  const loaded = await runRoute<object>(productRoute.loader, { path: `/store/${productId}`, params: { productId: String(productId) } });
  expect(loaded.status).toBe(200);
  return pageHtml(loaded.data, `/store/${productId}`, "/store/:productId", productRoute.default, at);
}

describe("the product page of a draw for a product with sizes and a size guide (decision 0057)", () => {
  const guide = "Size | Chest (in)\nS | 36-38\nM | 40-42\nMeasured flat, doubled.";
  const guidePanels = (html: string) => html.match(/<section id="size-guide"/g)?.length ?? 0;
  const entryForm = (html: string) => /<form[^>]*data-testid="draw-entry-form"[^>]*>([\s\S]*?)<\/form>/.exec(html)?.[1] ?? "";

  it("shows the size guide beside the size picker of the open entry form, in stock", async () => {
    const { product } = await sizedDraw(undefined, { sizeGuide: guide });
    ctx.clock.set(OPEN);
    const html = await productPageHtml(product.id, OPEN);
    const form = entryForm(html);
    expect(form).toContain('id="draw-size"');
    // The trigger right after the picker, and its panel: the guide's table and its note.
    expect(form).toMatch(/<\/select><div><a href="#size-guide" id="size-guide-link"[^>]*>Size guide<\/a>/);
    expect(form).toMatch(/<td[^>]*>40-42<\/td>/);
    expect(form).toContain("Measured flat, doubled.");
    expect(guidePanels(html)).toBe(1);
  });

  it("draws the guide once, beside the sizes shown, when a coming-soon product's entries are open", async () => {
    const { product } = await sizedDraw(undefined, { sizeGuide: guide, isComingSoon: true, releaseDate: "2026-07-01" });
    ctx.clock.set(OPEN);
    const html = await productPageHtml(product.id, OPEN);
    expect(entryForm(html)).toContain('id="draw-size"');
    expect(entryForm(html)).not.toContain("size-guide");
    expect(html).toMatch(/Size:<\/span> <span[^>]*>S, M, L<\/span><\/p><a href="#size-guide"/);
    expect(guidePanels(html)).toBe(1);
  });
});

async function drawPageHtml(drawId: number, at: string): Promise<string> {
  const path = `/draws/${drawId}`;
  const loaded = await runRoute<DrawPageData>(drawRoute.loader, { path, params: { id: String(drawId) } });
  expect(loaded.status).toBe(200);
  return pageHtml(loaded.data, path, "/draws/:id", drawRoute.default, at);
}

describe("the size guide of a draw product in stock, whatever the draw's state (decision 0057)", () => {
  const guide = "Size | Chest (in)\nS | 36-38\nM | 40-42\nMeasured flat, doubled.";
  const guidePanels = (html: string) => html.match(/<section id="size-guide"/g)?.length ?? 0;
  /** The sizes the draw offers, shown, with the guide's trigger right beside them. */
  const besideSizes = (sizes: string) =>
    new RegExp(
      `data-testid="draw-sizes"><p[^>]*><span[^>]*>Size:</span> <span[^>]*>${sizes}</span></p><a href="#size-guide" id="size-guide-link"`,
    );
  const stateIs = (label: string) => `data-testid="draw-state">${label}</h2>`;

  it.each([
    { when: "before its entries open", label: "Entries open soon", at: NOW, drawn: false },
    { when: "after its entries close", label: "Entries are closed: the draw is being made", at: AFTER, drawn: false },
    { when: "once it is drawn", label: "The draw has been made", at: AFTER, drawn: true },
  ])("shows it once, beside the draw's sizes, $when: on the product page and on /draws/{id}", async ({ label, at, drawn }) => {
    const { product, draw } = await sizedDraw({ S: 1, M: 1 }, { sizeGuide: guide });
    if (at !== NOW) {
      ctx.clock.set(OPEN);
      await enterAndConfirm(draw.id, `guide-${draw.id}@example.com`, "M");
    }
    ctx.clock.set(at);
    if (drawn) expect(await drawNow(ctx, draw.id, "")).toBe(true);
    for (const html of [await productPageHtml(product.id, at), await drawPageHtml(draw.id, at)]) {
      expect(html).toContain(stateIs(label));
      expect(html).not.toContain('data-testid="draw-entry-form"');
      // The sizes one may enter for (L gets no unit), the trigger beside them, and one panel with the table.
      expect(html).toMatch(besideSizes("S, M"));
      expect(html).toMatch(/<td[^>]*>40-42<\/td>/);
      expect(html).toContain("Measured flat, doubled.");
      expect(guidePanels(html)).toBe(1);
    }
  });

  it("keeps it on /draws/{id} once an entry is taken, the form gone", async () => {
    const { draw } = await sizedDraw(undefined, { sizeGuide: guide });
    ctx.clock.set(OPEN);
    const path = `/draws/${draw.id}`;
    const entered = await runRoute<DrawPageData>(drawEntryAction, {
      path,
      form: { email: "kept-guide@example.com", size: "M" },
      params: { id: String(draw.id) },
    });
    expect(entered.status).toBe(202);
    const html = await pageHtml(entered.data, path, "/draws/:id", drawRoute.default, OPEN);
    expect(html).toContain("Check your e-mail to confirm your entry.");
    expect(html).not.toContain('data-testid="draw-entry-form"');
    expect(html).toMatch(besideSizes("S, M, L"));
    expect(guidePanels(html)).toBe(1);
  });

  it('shows a one-size product\'s guide beside "One Size", open or not, as the page does for it off a draw', async () => {
    const oneSize = "Length 70 cm, chest 56 cm, measured flat.";
    const made = await api("POST", "/api/admin/products", {
      jar: admin,
      body: { name: "One Size Drawn Scarf", description: "A scarf sold by draw.", price: 40, inventory: 3, sizeGuide: oneSize },
    });
    expect(made.status).toBe(201);
    const product = (await made.json()) as AdminProduct;
    const created = await createDraw(product.id);
    expect(created.status).toBe(201);
    const draw = (await created.json()) as { id: number };
    for (const at of [NOW, OPEN]) {
      ctx.clock.set(at);
      for (const html of [await productPageHtml(product.id, at), await drawPageHtml(draw.id, at)]) {
        expect(html).toMatch(besideSizes("One Size"));
        expect(html).toContain(oneSize);
        expect(guidePanels(html)).toBe(1);
        // Open, the entry form asks for no size: the guide stays beside "One Size".
        if (at === OPEN) expect(html).toContain('data-testid="draw-entry-form"');
        expect(html).not.toContain('id="draw-size"');
      }
    }

    // The same product off a draw, on sale: "One Size" with the guide beside it, once.
    const plain = await addProduct(ctx, { name: "One Size Plain Scarf", inventory: 3, sizeGuide: oneSize });
    const html = await productPageHtml(plain, OPEN);
    expect(html).toMatch(/Size:<\/span> <span[^>]*>One Size<\/span><\/p><a href="#size-guide"/);
    expect(html).toContain(oneSize);
    expect(guidePanels(html)).toBe(1);
  });
});

describe("the draw's own page, /draws/{id}, for a product with a size guide (decision 0057)", () => {
  const guide = "Size | Chest (in)\nS | 36-38\nM | 40-42\nMeasured flat, doubled.";
  const afterPicker = /<\/select><div><a href="#size-guide" id="size-guide-link"[^>]*>Size guide<\/a>/;

  it("shows the guide beside the entry form's size picker, and again after a refused entry without JavaScript", async () => {
    const { product, draw } = await sizedDraw(undefined, { sizeGuide: guide });
    ctx.clock.set(OPEN);
    const path = `/draws/${draw.id}`;
    const loaded = await runRoute<DrawPageData>(drawRoute.loader, { path, params: { id: String(draw.id) } });
    expect(loaded.status).toBe(200);
    const html = await pageHtml(loaded.data, path, "/draws/:id", drawRoute.default, OPEN);
    expect(html).toMatch(afterPicker);
    expect(html).toMatch(/<td[^>]*>40-42<\/td>/);
    expect(html).toContain(`<p class="mt-1 mb-6 text-xs text-muted-foreground">${product.name}</p>`);

    // The form posted without a size: the page that says so keeps the guide.
    const refused = await runRoute<DrawPageData>(drawEntryAction, {
      path,
      form: { email: "guide@example.com", size: "" },
      params: { id: String(draw.id) },
    });
    expect(refused.status).toBe(400);
    const again = await pageHtml(refused.data, path, "/draws/:id", drawRoute.default, OPEN);
    expect(again).toContain("Please choose a size.");
    expect(again).toMatch(afterPicker);
  });

  it("shows no guide for a product without one", async () => {
    const { draw } = await sizedDraw();
    ctx.clock.set(OPEN);
    const path = `/draws/${draw.id}`;
    const loaded = await runRoute<DrawPageData>(drawRoute.loader, { path, params: { id: String(draw.id) } });
    const html = await pageHtml(loaded.data, path, "/draws/:id", drawRoute.default, OPEN);
    expect(html).toContain('id="draw-size"');
    expect(html).not.toContain("size-guide");
  });
});
