// End-to-end: starts the built store on a free port with a fresh DATA_DIR, runs the
// tests/e2e/*.e2e.ts files with node's test runner against it (one file, one test at a time), and
// stops the store. Build first (`npm run build`; `npm run test:e2e` does both).
//
//   node --import tsx tests/e2e/run.ts                    every file
//   node --import tsx tests/e2e/run.ts landing checkout   the files whose names start with those words
//   E2E_ORDER=reverse node --import tsx tests/e2e/run.ts  files and the tests in them back to front
//   E2E_ORDER=shuffle:42 …                                shuffled, the same way for the same seed
//
// HOW TO WRITE AN E2E TEST. The tests run in any order (the suite passes forward, reversed and
// shuffled), so each test stands alone:
// - A file is tests/e2e/<subject>.e2e.ts. Take `test` and `describe` from "./browser" (not from
//   node:test: those honour E2E_ORDER); keep describe bodies synchronous and no top-level await.
// - Open browsers with `newPage({ javaScriptEnabled, viewport, baseURL, allowHosts })` → `{ page,
//   context, problems }` (or `newContext`). They belong to the test and close when it ends, even when
//   it fails; assert `problems` is empty (page errors, console errors, third-party requests).
// - Make your own data, with unique names (support/data.ts): `adminApi()` is the admin's REST
//   session, `createProduct(api, { name: uniqueName("…"), … })` a product that is removed when the
//   test ends, `placeOrder(id)` a paid (or `pay: false`, unpaid) order, `createAdmin()` an admin of
//   your own, `uniqueEmail("…")` a subscriber or buyer. Never count on the seeded catalogue's stock
//   or visibility, nor on anything another test made, sold or changed.
// - Visitors without cookies may get a page up to a second old (the store's page cache): browsers
//   opened after the data helpers changed something wait that out; if you change data mid-test and
//   then look as a cookie-less visitor, `await storeCaughtUp()` first.
// - Sign in with `signIn(page, ADMIN)` (or your own admin's credentials). Don't change the shared
//   ADMIN's password: make an admin for that.
// - A test that changes something global (a setting such as the countdown date, the background
//   video) puts it back in a `finally`; nothing else may depend on its value in between.
// - Flows a visitor can do without JavaScript run in both `MODES`.
// - Callbacks for page.evaluate / addInitScript run in the browser, where tsx's `__name` helper does
//   not exist: inside them, don't assign arrow functions to a const or an object property (tsx then
//   wraps them in `__name(…)`); pass them inline or write methods (`get() { … }`).
import fs from "node:fs";
import path from "node:path";
import { run } from "node:test";
import { spec, tap } from "node:test/reporters";
import { arrange, describeOrder, parseOrder } from "./support/order";
import { root, startStore, type StoreProcess } from "./support/store-process";

process.chdir(root);
const order = parseOrder(process.env.E2E_ORDER);
const only = process.argv.slice(2);
const files = arrange(
  fs
    .readdirSync(path.join(root, "tests/e2e"))
    .filter((f) => f.endsWith(".e2e.ts") && (only.length === 0 || only.some((o) => f.startsWith(o))))
    .sort(),
  order,
  "files",
).map((f) => path.join("tests/e2e", f));
if (files.length === 0) {
  console.error(`No e2e file starts with ${only.join(" or ")}.`);
  process.exit(1);
}

const STORE_LOG_TAIL_LINES = 200;
const admin = { ADMIN_USERNAME: "e2e-admin", ADMIN_PASSWORD: "e2e-admin-password", ADMIN_EMAIL: "e2e-admin@example.com" };
let store: StoreProcess;
try {
  store = await startStore({
    env: {
      ...admin,
      BRAND_NAME: "Legacy",
      // Every browser comes from 127.0.0.1 here; the per-address limits have their own integration tests.
      LOGIN_ATTEMPTS_PER_IP: "1000",
      SUBSCRIBES_PER_IP: "1000",
      CHECKOUTS_PER_IP: "1000",
    },
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

console.log(`# E2E_ORDER=${describeOrder(order)}: ${files.map((f) => path.basename(f)).join(", ")}`);
// What every test process reads (node's runner hands this environment to each file's process).
Object.assign(process.env, {
  // A shuffle's seed goes on to the files, so the tests inside them are shuffled the same way again.
  E2E_ORDER: describeOrder(order),
  E2E_BASE_URL: store.baseUrl,
  E2E_DATA_DIR: store.dataDir,
  E2E_ADMIN_USERNAME: admin.ADMIN_USERNAME,
  E2E_ADMIN_PASSWORD: admin.ADMIN_PASSWORD,
});
// node's runner API, not `node --test <files>`: the command line sorts the files by name, run() keeps
// the order given. Each file runs in its own process, started with this one's `--import tsx`; one
// file at a time (--test-concurrency=1).
const failures: string[] = [];
const stream = run({ files: files.map((f) => path.join(root, f)), concurrency: 1 });
// A `todo` test that fails is reported as a failure too, yet it is a known gap printed on purpose
// (tests/e2e/js-budget.e2e.ts): it does not fail the run.
stream.on("test:fail", (event) => {
  if (event.todo) return;
  const error = event.details.error as Error & { cause?: unknown };
  const cause = error.cause instanceof Error ? error.cause : error;
  // The name, not event.file: tests declared through ./browser point at its helper, not their own file.
  failures.push(
    `- ${event.name}\n    ${String(cause.message ?? cause)
      .split("\n")
      .slice(0, 6)
      .join("\n    ")}`,
  );
});
const reported = process.stdout.isTTY ? stream.compose(new spec()) : stream.compose(tap);
reported.pipe(process.stdout);
await new Promise((resolve) => reported.once("end", resolve));
const failed = failures.length > 0;
if (failed) {
  // The whole log goes to a file; the console gets its tail, then the failures last, since a CI page
  // may show only the end of what was printed.
  const logFile = path.join(root, "tests/.tmp/e2e-store.log");
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  fs.writeFileSync(logFile, store.log());
  const tail = store.log().split("\n").slice(-STORE_LOG_TAIL_LINES).join("\n");
  console.error(`\nStore log (last ${STORE_LOG_TAIL_LINES} lines; all of it in ${path.relative(root, logFile)}):\n${tail}`);
}
await store.stop();
console.log(`# E2E_ORDER=${describeOrder(order)}${order.kind === "forward" ? "" : " (set it again to repeat this order)"}`);
if (failed) console.error(`\n${failures.length} e2e test(s) failed:\n${failures.join("\n")}`);
process.exit(failed ? 1 : 0);
