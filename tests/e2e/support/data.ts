// The data a test makes for itself: unique names, an admin's API session, products (removed again
// when the test ends), orders bought through the public API, and admins of its own. No test leans
// on the seeded catalogue or on what another test left behind.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import type { APIRequestContext, APIResponse } from "playwright-core";
import sharp from "sharp";
import type { AdminProduct, ProductInputJson } from "#server/contracts/admin-products";
import type { OrderSummary } from "#server/contracts/checkout";
import { ADMIN, BASE_URL, type Credentials, newContext, noteStoreWrite, onCleanup } from "../browser";
import { root } from "./store-process";

let counter = 0;

/** A short token no other test, file or run uses: time, a counter and a little randomness. */
export function uniqueToken(): string {
  counter += 1;
  return `${Date.now().toString(36)}${counter.toString(36)}${randomBytes(2).toString("hex")}`;
}

/** `"<prefix> <token>"`: a product or subject that only this test uses. */
export const uniqueName = (prefix: string) => `${prefix} ${uniqueToken()}`;

/** `"<prefix>-<token>@example.com"`. */
export const uniqueEmail = (prefix: string) => `${prefix}-${uniqueToken()}@example.com`;

async function expectStatus(response: APIResponse, status: number, what: string): Promise<void> {
  if (response.status() !== status) throw new Error(`${what}: expected ${status}, got ${response.status()} ${await response.text()}`);
}

/**
 * An API client signed in as an admin (the e2e admin unless told otherwise), in a browser context
 * of its own that closes when the test ends.
 */
export async function adminApi({
  baseURL = BASE_URL,
  username = ADMIN.username,
  password = ADMIN.password,
}: Partial<Credentials> & { baseURL?: string } = {}): Promise<APIRequestContext> {
  const context = await newContext({ baseURL, javaScriptEnabled: false });
  await expectStatus(await context.request.post("/api/login", { data: { username, password } }), 200, `signing ${username} in`);
  return context.request;
}

export type ProductFields = Partial<ProductInputJson> & { name: string };

/**
 * Creates a product (visible, 10 in stock, $30 unless told otherwise) through the admin API.
 * When the test ends it is deleted, or hidden if a checkout still holds some of it.
 */
export async function createProduct(api: APIRequestContext, fields: ProductFields): Promise<AdminProduct> {
  const response = await api.post("/api/admin/products", {
    data: { description: "Made by an end-to-end test, for that test only.", price: 30, inventory: 10, ...fields },
  });
  await expectStatus(response, 201, `creating ${fields.name}`);
  noteStoreWrite();
  const product = (await response.json()) as AdminProduct;
  onCleanup(() =>
    removeProduct(api, product.id).catch((error: unknown) => {
      if (error instanceof Error && /has been closed/.test(error.message)) {
        throw new Error(
          `Product "${product.name}" was left behind: its API's browser context was closed before the test ended (let the test end close it).`,
          { cause: error },
        );
      }
      throw error;
    }),
  );
  return product;
}

/** For a product a test makes through the UI: removed by its (unique) name when the test ends, if it is still there. */
export function removeProductNamedAtEnd(api: APIRequestContext, name: string): void {
  onCleanup(async () => {
    const response = await api.get("/api/admin/products");
    await expectStatus(response, 200, "listing products");
    const product = ((await response.json()) as AdminProduct[]).find((p) => p.name === name);
    if (product) await removeProduct(api, product.id);
  });
}

async function removeProduct(api: APIRequestContext, id: number): Promise<void> {
  // DELETE is idempotent: a connection reset before the answer is tried once more.
  const deleted = await api.delete(`/api/admin/products/${id}`).catch((error: unknown) => {
    if (error instanceof Error && /ECONNRESET|socket hang up/.test(error.message)) return api.delete(`/api/admin/products/${id}`);
    throw error;
  });
  if (deleted.ok() || deleted.status() === 404) return;
  // A product a checkout holds cannot be deleted until the hold ends; hidden, it touches nothing else.
  if (deleted.status() === 409) {
    await expectStatus(await api.patch(`/api/admin/products/${id}`, { data: { isVisible: false } }), 200, `hiding product ${id}`);
    return;
  }
  await expectStatus(deleted, 200, `deleting product ${id}`);
}

/** Uploads one generated PNG per colour to the product, in order (the first becomes primary). */
export async function addImages(api: APIRequestContext, productId: number, colors: string[]): Promise<void> {
  for (const [index, color] of colors.entries()) {
    const buffer = await sharp({ create: { width: 600, height: 750, channels: 3, background: color } })
      .png()
      .toBuffer();
    const response = await api.post(`/api/admin/products/${productId}/images`, {
      multipart: { image: { name: `e2e-${index + 1}.png`, mimeType: "image/png", buffer } },
    });
    await expectStatus(response, 201, `uploading image ${index + 1} of product ${productId}`);
    noteStoreWrite();
  }
}

export interface Buyer {
  email: string;
  name: string;
  street: string;
  city: string;
  state: string;
  zipCode: string;
}

/** A buyer in New York, with an e-mail of its own. */
export const newBuyer = (name = "Eve Buyer"): Buyer => ({
  email: uniqueEmail("e2e-buyer"),
  name,
  street: "350 5th Ave",
  city: "New York",
  state: "NY",
  zipCode: "10001",
});

/**
 * Buys `quantity` of a product through the public API, as a shopper's browser of its own would
 * (bag, process order, the local test processor's card). `pay: false` stops before paying: the
 * order is then unpaid, its units held. Resolves to the order's number.
 */
export async function placeOrder(
  productId: number,
  {
    buyer = newBuyer(),
    quantity = 1,
    pay = true,
    baseURL = BASE_URL,
    size,
  }: { buyer?: Buyer; quantity?: number; pay?: boolean; baseURL?: string; size?: string } = {},
): Promise<{ orderNumber: string; paymentIntentId: string }> {
  const shopper = (await newContext({ baseURL, javaScriptEnabled: false })).request;
  await expectStatus(
    await shopper.post("/api/cart", { data: { productId, quantity, ...(size ? { size } : {}) } }),
    201,
    "adding to the bag",
  );
  const processed = await shopper.post("/api/process-order", {
    data: { customerInfo: { ...buyer, country: "US" }, shippingMethod: "usps-ground_saver" },
  });
  await expectStatus(processed, 201, "processing the order");
  const { clientSecret, paymentIntentId, orderSummary } = (await processed.json()) as {
    clientSecret: string;
    paymentIntentId: string;
    orderSummary: OrderSummary;
  };
  if (pay) {
    const paid = await shopper.post("/api/local-payments/confirm", { data: { clientSecret, cardNumber: "4242 4242 4242 4242" } });
    await expectStatus(paid, 200, "paying with the test card");
  }
  noteStoreWrite();
  return { orderNumber: orderSummary.orderNumber, paymentIntentId };
}

/**
 * An admin of the test's own, created the way an operator does (`npm run admin:create`) on the
 * store's database, so a test can change its password without touching anyone else's session.
 */
export async function createAdmin(prefix = "e2e-admin"): Promise<Credentials & { email: string }> {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set: run the e2e tests through tests/e2e/run.ts");
  const token = uniqueToken();
  const admin = {
    username: `${prefix}-${token}`,
    password: `pw-${token}-${randomBytes(6).toString("hex")}`,
    email: `${prefix}-${token}@example.com`,
  };
  const { NODE_TEST_CONTEXT: _test, ...env } = process.env;
  await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/admin-create.ts", admin.username, admin.email], {
    cwd: root,
    env: { ...env, DATA_DIR: dataDir, ADMIN_PASSWORD: admin.password },
  });
  return admin;
}
