// CPU per rush step, one shopper at a time: `node bench/step-cpu.mjs [--shoppers 150] [--workers 1]`
// (after `npm run build`). The store's CPU time (every thread, Linux /proc) is read before and after
// each request, so each step's figure is what that request cost the store, whatever else runs on a
// shared machine (wall-clock figures are noise there). After each payment the bench waits until the
// order's e-mail and label are done and counts that CPU as "fulfilment after the answer" (work the
// store does once the shopper has their answer still costs the drop). Prints medians; no log.
import { parseArgs } from "node:util";
import { cpuNanos, processTree } from "./cpu-time.mjs";
import { createClient, jsonOf } from "./http-client.mjs";
import { cookieJar, fulfilmentSettled, STEPS } from "./rush.mjs";
import { median } from "./stats.mjs";
import { assertBuilt, createDropProduct, startStore } from "./store-server.mjs";

const { values } = parseArgs({ options: { shoppers: { type: "string" }, workers: { type: "string" } } });
const shoppers = Number(values.shoppers ?? 150);
const workers = Number(values.workers ?? 1);
assertBuilt();
const store = await startStore({ workers });
const FULFIL = "fulfilment after the answer";
const costs = Object.fromEntries([...STEPS, FULFIL].map((step) => [step, []]));
try {
  const client = createClient(store.base, { sockets: 1 });
  // The first requests compile code and fill caches: not what a drop pays per shopper.
  const WARM_UP = 10;
  const productId = await createDropProduct(client, store.admin, shoppers + WARM_UP);
  const pids = processTree(store.pid);
  if (!cpuNanos(pids)) throw new Error("No /proc here: CPU time cannot be read.");
  for (let n = 0; n < shoppers + WARM_UP; n++) {
    const jar = cookieJar();
    const step = async (index, method, path, body) => {
      const headers = { Cookie: jar.header() };
      if (method !== "GET") headers.Origin = store.base;
      const before = cpuNanos(pids);
      const response = await client.request(method, path, { headers, body });
      const after = cpuNanos(pids);
      if (n >= WARM_UP) costs[STEPS[index]].push((after - before) / 1e6);
      jar.take(response);
      if (response.status >= 400) throw new Error(`${STEPS[index]} answered ${response.status}: ${response.body.toString().slice(0, 200)}`);
      return response;
    };
    await step(0, "GET", "/store");
    await step(1, "POST", "/api/cart", { productId, quantity: 1 });
    await step(2, "GET", `/store/${productId}`);
    await step(3, "GET", "/checkout");
    const address = { street: `${100 + n} Market St`, city: "Austin", state: "TX", zipCode: "78701", country: "US" };
    const rates = jsonOf(await step(4, "POST", "/api/shipping/calculate", { address }));
    const customerInfo = { ...address, email: `shopper${n}@bench.example`, name: `Shopper ${n}`, phone: "" };
    const order = jsonOf(await step(5, "POST", "/api/process-order", { customerInfo, shippingMethod: rates[0].key }));
    await step(6, "POST", "/api/local-payments/confirm", { clientSecret: order.clientSecret, cardNumber: "4242 4242 4242 4242" });
    const before = cpuNanos(pids);
    if ((await fulfilmentSettled(store.database, 30_000)) === null) throw new Error("An order was not fulfilled within 30 s.");
    if (n >= WARM_UP) costs[FULFIL].push((cpuNanos(pids) - before) / 1e6);
  }
  client.close();
} finally {
  await store.stop();
  store.cleanUp();
}
const rows = Object.entries(costs).map(([step, ms]) => ({
  step,
  "median ms": median(ms).toFixed(2),
  "mean ms": (ms.reduce((a, b) => a + b, 0) / ms.length).toFixed(2),
}));
console.table(rows);
const total = Object.values(costs).reduce((sum, ms) => sum + ms.reduce((a, b) => a + b, 0) / ms.length, 0);
console.log(`One whole shopper (means summed): ${total.toFixed(2)} ms of store CPU over ${shoppers} shoppers, ${workers} worker(s).`);
