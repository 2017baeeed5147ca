// Issue 15 (`npm run bench -- --only lighthouse`, after `npm run build`): Lighthouse 12, mobile
// with simulated slow 4G (its default), against the built store on loopback: /, /countdown,
// /store, /store/:id, /checkout with a bag, and /waiting-room with the waiting room on; 3 runs a
// page, the median of each figure. Chromium is Debian's (/usr/bin/chromium). Appends to docs/perf.md.
// Simulated throttling still scales with the CPU the runs observe: on a shared machine the
// figures are provisional (the section says the load average before and after).
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { cookiesOf, createClient, textOf } from "./http-client.mjs";
import { appendSection, machine, PERF_LOG } from "./perf-log.mjs";
import { median } from "./stats.mjs";
import { assertBuilt, startStore } from "./store-server.mjs";

const CHROMIUM = process.env.CHROME_PATH || "/usr/bin/chromium";
export const TARGETS = { performance: 95, lcpMs: 2000, cls: 0.05, accessibility: 100, bestPractices: 100, seo: 100 };

function readOptions(argv) {
  const { values } = parseArgs({
    args: argv.filter((arg) => arg !== "--only" && arg !== "lighthouse" && arg !== "--only=lighthouse"),
    options: {
      runs: { type: "string", default: "3" },
      note: { type: "string" },
      "no-log": { type: "boolean" },
      save: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log("npm run bench -- --only lighthouse [--runs 3] [--note text] [--no-log] [--save dir]");
    console.log("  --save dir: also write each run's full Lighthouse report (JSON) into dir, to read its diagnostics.");
    process.exit(0);
  }
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1 || runs > 9) throw new Error("--runs takes a whole number from 1 to 9.");
  return { runs, note: values.note ?? "", log: !values["no-log"], save: values.save };
}

/** One Lighthouse run: the four category scores (0–100), LCP in ms, CLS. */
async function audit(chrome, url, headers) {
  const { lhr } = await lighthouse(url, {
    port: chrome.port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
    extraHeaders: headers,
  });
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
  const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  return {
    performance: score("performance"),
    lcpMs: lhr.audits["largest-contentful-paint"].numericValue,
    cls: lhr.audits["cumulative-layout-shift"].numericValue,
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    seo: score("seo"),
    lcpElement: lcpElementOf(lhr),
    lhr,
  };
}

/**
 * The LCP element as Lighthouse names it. In Lighthouse 12 the audit's details are a `list` whose
 * first entry is a `table` with one row `{ node: { type: "node", selector, nodeLabel, snippet } }`
 * (the second table is the LCP's phases); older versions had the table itself. A page whose LCP is
 * not an element (or an audit that did not run) gives "(not reported)" rather than an empty string.
 */
export function lcpElementOf(lhr) {
  const details = lhr.audits["largest-contentful-paint-element"]?.details;
  if (!details) return "";
  const tables = details?.type === "list" ? details.items : details ? [details] : [];
  for (const table of tables) {
    for (const row of table?.items ?? []) {
      const node = row?.node;
      if (node?.type === "node") return [node.snippet, node.nodeLabel && `"${node.nodeLabel}"`].filter(Boolean).join(" ");
    }
  }
  return "";
}

/**
 * The LCP element as the browser itself reports it (a PerformanceObserver in a tab of the same
 * Chromium, Lighthouse's phone viewport). Lighthouse 12.2's own audit fails with Debian's current
 * Chromium (its trace engine cannot read the new frame events: "Cannot read properties of
 * undefined (reading 'frame_sequence')"), so the bench asks the page when Lighthouse cannot say.
 */
async function observedLcpElement(chrome, url, headers) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
    extraHTTPHeaders: headers ?? {},
  });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: "load" });
    await page.waitForTimeout(1500);
    return await page.evaluate(
      () =>
        new Promise((resolve) => {
          new PerformanceObserver((list) => {
            const element = list.getEntries().at(-1)?.element;
            if (!element) return resolve("(none)");
            const tag = element.outerHTML.slice(0, element.outerHTML.indexOf(">") + 1);
            const text = (element.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 60);
            resolve(text ? `${tag} "${text}"` : tag);
          }).observe({ type: "largest-contentful-paint", buffered: true });
        }),
    );
  } finally {
    await context.close();
    await browser.close().catch(() => {});
  }
}

function medianOf(runs) {
  const keys = ["performance", "lcpMs", "cls", "accessibility", "bestPractices", "seo"];
  return { ...Object.fromEntries(keys.map((key) => [key, median(runs.map((run) => run[key]))])), lcpElement: runs[0].lcpElement };
}

const meets = (row) =>
  row.performance >= TARGETS.performance &&
  row.lcpMs <= TARGETS.lcpMs &&
  row.cls <= TARGETS.cls &&
  row.accessibility >= TARGETS.accessibility &&
  row.bestPractices >= TARGETS.bestPractices &&
  row.seo >= TARGETS.seo;

function format({ startedAt, before, loadAfter, options, rows }) {
  const stamp = startedAt.toISOString().slice(0, 16).replace("T", " ");
  const lines = [
    `## ${stamp} UTC · ${before.cores} cores (${before.cpu}) · Node ${before.node} · Lighthouse`,
    "",
    `Load average (1 min): ${before.load.toFixed(2)} before, ${loadAfter.toFixed(2)} after. Lighthouse 12, mobile, simulated slow 4G, ` +
      `Chromium ${CHROMIUM}; median of ${options.runs} runs a page; store: 1 worker.${options.note ? ` ${options.note}` : ""}`,
    "",
    `Targets: Performance ≥ ${TARGETS.performance}, LCP ≤ ${TARGETS.lcpMs / 1000} s, CLS ≤ ${TARGETS.cls}, Accessibility, Best Practices and SEO ${TARGETS.seo}.`,
    "",
    "| page | Performance | LCP s | CLS | Accessibility | Best Practices | SEO | targets |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.page} | ${r.performance} | ${(r.lcpMs / 1000).toFixed(2)} | ${r.cls.toFixed(3)} | ${r.accessibility} | ${r.bestPractices} | ${r.seo} | ${meets(r) ? "met" : "**not met**"} |`,
    );
  }
  lines.push("", "LCP element (as Lighthouse names it, else as the page's PerformanceObserver reports it):", "");
  for (const r of rows) lines.push(`- ${r.page}: \`${r.lcpElement.replaceAll("`", "'").slice(0, 160)}\``);
  lines.push("");
  return lines.join("\n");
}

export async function main(argv = process.argv.slice(2)) {
  let options;
  try {
    options = readOptions(argv);
    assertBuilt();
  } catch (error) {
    console.error(error.message);
    return 1;
  }
  const startedAt = new Date();
  const before = machine();
  console.log(`${before.cores} cores, load ${before.load.toFixed(2)}; starting the built store (1 worker)…`);
  const store = await startStore({ workers: 1 });
  // The bench stops by itself: 3 minutes a page at most.
  const hardStop = setTimeout(
    () => {
      console.error("Lighthouse ran past its time bound: stopping.");
      process.exit(2);
    },
    6 * 3 * 60_000,
  );
  hardStop.unref();
  let chrome;
  try {
    const client = createClient(store.base, { sockets: 2 });
    const login = await client.request("POST", "/api/login", { body: store.admin });
    if (login.status !== 200) throw new Error(`Admin sign-in answered ${login.status}: ${textOf(login)}`);
    const admin = { Cookie: cookiesOf(login) };
    // The seeded catalogue's first product (it has photos); a bag holding it for /checkout.
    const productId = 1;
    const bag = await client.request("POST", "/api/cart", { headers: { Origin: store.base }, body: { productId, quantity: 1 } });
    if (bag.status !== 201) throw new Error(`Filling the bag answered ${bag.status}: ${textOf(bag)}`);
    const withBag = { Cookie: cookiesOf(bag) };
    const pages = [
      { page: "/", path: "/" },
      { page: "/countdown", path: "/countdown" },
      { page: "/store", path: "/store" },
      { page: "/store/:id", path: `/store/${productId}` },
      { page: "/checkout (with a bag)", path: "/checkout", headers: withBag },
      {
        page: "/waiting-room (room on)",
        path: "/waiting-room",
        // Last: the room gates the whole store in its window.
        async before() {
          const soon = new Date(Date.now() + 60 * 60_000).toISOString();
          const date = await client.request("POST", "/api/admin/settings", {
            headers: admin,
            body: { key: "countdown_date", value: soon },
          });
          const room = await client.request("PATCH", "/api/admin/waiting-room", { headers: admin, body: { enabled: true, paused: true } });
          if (date.status !== 200 || room.status !== 200)
            throw new Error(`Opening the waiting room answered ${date.status}, ${room.status}`);
        },
      },
    ];
    chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM,
      chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
    });
    const rows = [];
    for (const page of pages) {
      await page.before?.();
      const runs = [];
      for (let i = 0; i < options.runs; i++) {
        const run = await audit(chrome, `${store.base}${page.path}`, page.headers);
        if (options.save) {
          mkdirSync(options.save, { recursive: true });
          const name = `${page.path.replace(/\W+/g, "_").replace(/^_|_$/g, "") || "landing"}-${i + 1}.json`;
          writeFileSync(join(options.save, name), JSON.stringify(run.lhr));
        }
        delete run.lhr;
        runs.push(run);
      }
      const row = { page: page.page, ...medianOf(runs) };
      if (!row.lcpElement) row.lcpElement = await observedLcpElement(chrome, `${store.base}${page.path}`, page.headers);
      rows.push(row);
      console.log(
        `${row.page}: Performance ${row.performance}, LCP ${(row.lcpMs / 1000).toFixed(2)} s, CLS ${row.cls.toFixed(3)}, ` +
          `Accessibility ${row.accessibility}, Best Practices ${row.bestPractices}, SEO ${row.seo} (LCP element: ${row.lcpElement.slice(0, 120)})`,
      );
    }
    client.close();
    const section = format({ startedAt, before, loadAfter: machine().load, options, rows });
    console.log(`\n${section}`);
    if (options.log) {
      appendSection(section);
      console.log(`Appended to ${PERF_LOG}.`);
    }
    return 0;
  } catch (error) {
    console.error(error.message);
    if (store.stderr()) console.error(store.stderr());
    return 1;
  } finally {
    await chrome?.kill();
    await store.stop();
    store.cleanUp();
  }
}
