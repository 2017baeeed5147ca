// The admin Draws tab (issue 26, decision 0047) in the browser, with and without JavaScript: it is
// for admins only; the admin creates a draw for a product and deletes it before entries open; an
// entrant enters a sized draw choosing a size; the admin sees the entries per size, live (with
// JavaScript the counts move without a reload); after the close the admin presses Draw, sees the
// winner and their claim on the draw's page and follows the link to the public proof. A drawn
// draw's page fits a 390 px phone: its seven-column size table becomes a card per size there, with
// no sideways scrolling, and is still read out as a table.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { utcToStoreWallClock } from "#server/contracts/store-time";
import { ADMIN, expectVisible, MODES, newPage, signIn, test } from "./browser";
import { adminApi, createProduct, uniqueEmail, uniqueName } from "./support/data";
import { findInOutbox, outboxReader } from "./support/outbox";

const SHOTS = process.env.E2E_SHOTS;
const shot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
};

const until = (iso: string) => new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(iso) - Date.now() + 300)));

/** A datetime-local value, New York wall-clock, `ms` from now. */
function wallClockIn(ms: number): string {
  const { date, time } = utcToStoreWallClock(new Date(Date.now() + ms));
  return `${date}T${time}`;
}

for (const mode of MODES) {
  const tag = mode.javaScriptEnabled ? "js" : "nojs";

  test(`a drawn draw's page fits a 390 px phone, its size table unscrolled (${mode.name})`, async () => {
    const api = await adminApi();
    // The widest a size row gets: the longest label allowed (12 characters), a seven-digit stock.
    const sizes = [
      { label: "XS", inventory: 5 },
      { label: "M", inventory: 1_000_000 },
      { label: "EU 44 / UK 9", inventory: 12 },
    ];
    const product = await createProduct(api, { name: uniqueName("E2E Narrow Draw Tee"), sizes });
    const entriesOpenAt = new Date(Date.now() + 1_500).toISOString();
    const entriesCloseAt = new Date(Date.now() + 3_500).toISOString();
    const made = await api.post("/api/admin/draws", { data: { productId: product.id, entriesOpenAt, entriesCloseAt } });
    assert.equal(made.status(), 201);
    const draw = (await made.json()) as { id: number };
    await until(entriesOpenAt);
    const entered = await api.post(`/api/draws/${draw.id}/entries`, { data: { email: uniqueEmail("e2e-narrow-draw"), size: "M" } });
    assert.equal(entered.status(), 202);
    await until(entriesCloseAt);
    // The sweeper may have drawn it already (409): either way it is drawn, with its results columns.
    assert.ok([200, 409].includes((await api.post(`/api/admin/draws/${draw.id}/draw`, { data: {} })).status()));

    const { page, problems } = await newPage({ javaScriptEnabled: mode.javaScriptEnabled, viewport: { width: 390, height: 844 } });
    await signIn(page, ADMIN);
    await page.waitForURL((url) => url.pathname.startsWith("/admin") && !url.pathname.includes("login"));
    await page.goto(`/admin/draws/${draw.id}`);
    // Still a table to a screen reader: its name, its column headers, a row header per size.
    const table = page.getByRole("table", { name: "Entries per size" });
    await expectVisible(table);
    const headers = ["Size", "Units", "Confirmed", "Entered", "Won", "Claimed", "Paid"];
    for (const name of headers) await expectVisible(table.getByRole("columnheader", { name, exact: true }));
    const sizeRow = (size: string) => table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: size, exact: true }) });
    // What a screen reader gives for a size's cells (units, confirmed, entered, won, claimed, paid).
    const spoken = async (size: string) => Array.from((await sizeRow(size).ariaSnapshot()).matchAll(/- cell "([^"]*)"/g), (m) => m[1]);
    assert.deepEqual(await spoken("M"), ["1000000", "0", "1", "0", "0", "0"]);
    assert.deepEqual(await spoken("EU 44 / UK 9"), ["12", "0", "0", "0", "0", "0"]);
    assert.deepEqual(await spoken("Total"), ["1000017", "0", "1", "0", "0", "0"]);
    // On a phone each number is shown beside the name of its column.
    await expectVisible(sizeRow("M").getByText("Confirmed", { exact: true }));

    const widths = await table.evaluate((element) => ({
      page: document.documentElement.scrollWidth,
      table: [element.scrollWidth, element.clientWidth],
      // What scrolls sideways in the draw's section (the table's box, any wrapper): nothing should.
      // (The admin's tabs above it wrap on a phone: admin-auth.e2e.ts.)
      scrolling: Array.from(document.querySelectorAll("[aria-labelledby=admin-section-heading] *"))
        .filter((el) => el.scrollWidth > el.clientWidth + 1 && ["auto", "scroll"].includes(getComputedStyle(el).overflowX))
        .map((el) => `${el.tagName.toLowerCase()}[data-testid=${el.getAttribute("data-testid")}] ${el.scrollWidth}>${el.clientWidth}`),
      right: element.getBoundingClientRect().right,
    }));
    await shot(page, `admin-draw-sizes-390-${tag}`);
    assert.ok(widths.page <= 390, `the page is ${widths.page} px wide at 390`);
    assert.ok(widths.table[0]! <= widths.table[1]!, `the table scrolls: ${widths.table[0]} px in ${widths.table[1]}`);
    assert.ok(widths.right <= 390, `the table ends at ${widths.right} px, past the 390 px screen`);
    assert.deepEqual(widths.scrolling, []);

    // At desktop width, one row per size under the column headers, as before.
    await page.setViewportSize({ width: 1280, height: 900 });
    for (const name of headers) await expectVisible(table.getByRole("columnheader", { name, exact: true }));
    assert.equal(await sizeRow("M").getByText("Confirmed", { exact: true }).isVisible(), false);
    const [first, last] = await Promise.all(["XS", "Total"].map((size) => sizeRow(size).getByRole("cell").last().boundingBox()));
    assert.equal(Math.round(first!.x), Math.round(last!.x), "the columns line up");
    await shot(page, `admin-draw-sizes-1280-${tag}`);
    assert.deepEqual(problems, []);
  });

  test(`the Draws tab is for admins; an admin creates and deletes a draw (${mode.name})`, async () => {
    const stranger = (await newPage({ javaScriptEnabled: mode.javaScriptEnabled })).page;
    await stranger.goto("/admin/draws");
    assert.equal(new URL(stranger.url()).pathname, "/auth");

    const api = await adminApi();
    const product = await createProduct(api, { name: uniqueName("E2E Admin Draw Tee"), inventory: 4 });
    const { page, problems } = await newPage({ javaScriptEnabled: mode.javaScriptEnabled, viewport: { width: 390, height: 844 } });
    await signIn(page, ADMIN);
    await page.waitForURL((url) => url.pathname.startsWith("/admin") && !url.pathname.includes("login"));
    await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Draws" }).click();
    await page.waitForURL((url) => url.pathname === "/admin/draws");
    await expectVisible(page.getByRole("heading", { name: "Draws", exact: true }));

    const form = page.getByTestId("create-draw");
    await form.getByLabel("Product").selectOption(String(product.id));
    await form.getByLabel("Entries open").fill(wallClockIn(24 * 3600_000));
    await form.getByLabel("Entries close").fill(wallClockIn(48 * 3600_000));
    await form.getByLabel("Units (optional)").fill("9");
    await form.getByRole("button", { name: "Create draw" }).click();
    await expectVisible(form.getByText("Units must not exceed the product's stock (4)."));

    await form.getByLabel("Product").selectOption(String(product.id));
    await form.getByLabel("Entries open").fill(wallClockIn(24 * 3600_000));
    await form.getByLabel("Entries close").fill(wallClockIn(48 * 3600_000));
    await form.getByLabel("Units (optional)").fill("3");
    await form.getByRole("button", { name: "Create draw" }).click();
    await expectVisible(form.getByText(`Draw created for ${product.name}.`));
    const row = page.getByTestId("draw-row").filter({ hasText: product.name });
    await expectVisible(row.getByText("Upcoming"));
    await expectVisible(row.getByTestId("draw-entries").getByText("0 confirmed of 0"));
    await shot(page, `admin-draws-390-${tag}`);
    const listed = (await (await api.get("/api/admin/draws")).json()) as { draws: { product: { id: number }; units: unknown }[] };
    assert.deepEqual(listed.draws.find((d) => d.product.id === product.id)?.units, { "": 3 });

    await row.getByRole("button", { name: `Delete the draw for ${product.name}` }).click();
    await expectVisible(page.getByTestId("draws-notice").getByText("Draw deleted."));
    // The notice waits for the reloaded list (Remix gives the action's answer before the loaders'
    // data): when it shows, the row is already gone.
    assert.equal(await page.getByTestId("draw-row").filter({ hasText: product.name }).count(), 0);
    // The refused create answers 400, which Chromium reports.
    assert.deepEqual(
      problems.filter((p) => !p.includes("status of 400")),
      [],
    );
  });

  test(`an entrant picks a size; after the close the admin draws and opens the proof (${mode.name})`, async () => {
    const api = await adminApi();
    const product = await createProduct(api, {
      name: uniqueName("E2E Sized Draw Tee"),
      sizes: [
        { label: "S", inventory: 1 },
        { label: "M", inventory: 1 },
      ],
    });
    const entriesOpenAt = new Date(Date.now() + 3_000).toISOString();
    // Long enough for the entry, the admin's sign-in and the live counts' ten seconds on a loaded machine.
    const entriesCloseAt = new Date(Date.now() + 60_000).toISOString();
    const made = await api.post("/api/admin/draws", { data: { productId: product.id, entriesOpenAt, entriesCloseAt } });
    assert.equal(made.status(), 201);
    const draw = (await made.json()) as { id: number; commitment: string; units: Record<string, number> };
    assert.deepEqual(draw.units, { S: 1, M: 1 });
    await until(entriesOpenAt);

    const entrant = await newPage({ javaScriptEnabled: mode.javaScriptEnabled, viewport: { width: 390, height: 844 } });
    await entrant.page.goto(`/store/${product.id}`);
    const panel = entrant.page.getByTestId("draw-panel");
    await expectVisible(panel.getByText("Entries are open"));
    const email = uniqueEmail("e2e-sized-draw");
    await panel.getByLabel("E-mail").fill(email);
    await panel.getByLabel("Size").selectOption("M");
    await shot(entrant.page, `draw-size-390-${tag}`);
    await panel.getByRole("button", { name: "Enter the draw" }).click();
    await expectVisible(entrant.page.getByTestId("draw-entered").getByText("Check your e-mail to confirm your entry."));
    const entered = (await (await api.get(`/api/admin/draws/${draw.id}`)).json()) as { perSize: { size: string; entries: number }[] };
    assert.deepEqual(
      entered.perSize.map((s) => [s.size, s.entries]),
      [
        ["S", 0],
        ["M", 1],
      ],
    );

    // The admin watches from before the close, so Draw is pressed within a second of it: the
    // sweeper's leader also draws closed draws (every 30 s), and may still get there first.
    const { page, problems } = await newPage({ javaScriptEnabled: mode.javaScriptEnabled, viewport: { width: 1280, height: 900 } });
    await signIn(page, ADMIN);
    await page.waitForURL((url) => url.pathname.startsWith("/admin") && !url.pathname.includes("login"));
    await page.goto("/admin/draws");
    const row = page.getByTestId("draw-row").filter({ hasText: product.name });
    await expectVisible(row.getByText("Entries open"));
    await expectVisible(row.getByTestId("draw-entries").getByText("0 confirmed of 1"));
    const sizeCells = (size: string) => row.getByTestId("draw-size-row").filter({ hasText: size }).locator("th, td").allTextContents();
    // Size, units, confirmed, entered.
    assert.deepEqual(await sizeCells("S"), ["S", "1", "0", "0"]);
    assert.deepEqual(await sizeCells("M"), ["M", "1", "0", "1"]);
    assert.deepEqual(await row.getByTestId("draw-size-total").locator("th, td").allTextContents(), ["Total", "2", "0", "1"]);

    // The entrant confirms; with JavaScript the tab shows it within its ten seconds, without on reload.
    const outbox = await outboxReader();
    const confirmUrl = await findInOutbox(outbox, email, "Confirm your entry", /https?:\/\/\S+\/draws\/\d+\/confirm\/[\w.-]+/);
    await entrant.page.goto(confirmUrl);
    await entrant.page.getByRole("button", { name: "Confirm my entry" }).click();
    await expectVisible(entrant.page.getByTestId("draw-receipt"));
    if (!mode.javaScriptEnabled) await page.reload();
    await expectVisible(row.getByTestId("draw-entries").getByText("1 confirmed of 1"), 15_000);
    assert.deepEqual(await sizeCells("M"), ["M", "1", "1", "1"]);
    await shot(page, `admin-draws-counts-1280-${tag}`);

    await until(entriesCloseAt);
    await page.goto("/admin/draws");
    // The sweeper may draw first, before the page loads or between the load and the press: the
    // admin is then told so, and the page shows the draw made.
    let drawnByAdmin = false;
    if ((await row.getByText("Drawn", { exact: true }).count()) === 0) {
      await expectVisible(row.getByText("Closed, to draw"));
      await row.getByLabel("Beacon (optional)").fill("e2e-beacon");
      await row.getByRole("button", { name: "Draw", exact: true }).click();
      const made = page.getByTestId("draws-notice").getByText(`The draw for ${product.name} has been made.`);
      await expectVisible(made.or(page.getByTestId("draws-error").getByText("This draw has been drawn.")));
      drawnByAdmin = (await made.count()) > 0;
    }
    await expectVisible(row.getByText("Drawn", { exact: true }));
    await shot(page, `admin-draws-drawn-1280-${tag}`);

    await row.getByRole("link", { name: `Winners and claims: ${product.name}` }).click();
    await page.waitForURL((url) => url.pathname === `/admin/draws/${draw.id}`);
    const winner = page.getByTestId("draw-winner");
    await expectVisible(winner);
    assert.equal(await winner.count(), 1);
    // Place, e-mail, size, claim, entry: as a screen reader gives them, under the column headers.
    const winners = page.getByRole("table", { name: "Winners and their claims" });
    const spokenCells = async () => Array.from((await winner.ariaSnapshot()).matchAll(/- cell "([^"]*)"/g), (m) => m[1]);
    const winnerColumns = ["Place", "E-mail", "Size", "Claim", "Entry"];
    assert.deepEqual(await spokenCells(), ["1", email, "M", "Claim e-mailed", "#1"]);
    await expectVisible(page.getByTestId("draw-reached").getByText("Drawn order reached: S: none, M: place 1"));
    // At desktop width, one row under the column headers, the cells side by side.
    for (const name of winnerColumns) await expectVisible(winners.getByRole("columnheader", { name, exact: true }));
    const cellTops = await winner
      .getByRole("cell")
      .evaluateAll((cells) => cells.map((cell) => Math.round(cell.getBoundingClientRect().top)));
    assert.equal(new Set(cellTops).size, 1, `the winner's cells are on one row: ${cellTops.join(", ")}`);
    await shot(page, `admin-draw-winners-1280-${tag}`);

    // On a phone: nothing scrolls sideways, the address reads whole on its line, the claim on one
    // line, and each value not self-evident is shown beside its column's name; still a table.
    await page.setViewportSize({ width: 390, height: 844 });
    const lines = (testText: string) =>
      winner
        .getByRole("cell")
        .filter({ hasText: testText })
        .evaluate((cell) => {
          const range = document.createRange();
          range.selectNodeContents(cell);
          return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
        });
    const narrow = await winners.evaluate((table) => ({
      page: document.documentElement.scrollWidth,
      table: [table.scrollWidth, table.clientWidth],
      box: [table.parentElement!.scrollWidth, table.parentElement!.clientWidth],
    }));
    await shot(page, `admin-draw-winners-390-${tag}`);
    assert.ok(narrow.page <= 390, `the page is ${narrow.page} px wide at 390`);
    assert.ok(narrow.table[0]! <= narrow.table[1]!, `the winners table scrolls: ${narrow.table.join(" in ")}`);
    assert.ok(narrow.box[0]! <= narrow.box[1]!, `the winners' box scrolls: ${narrow.box.join(" in ")}`);
    assert.equal(await lines(email), 1, "the e-mail address is broken over lines");
    assert.equal(await lines("Claim e-mailed"), 1, '"Claim e-mailed" wraps');
    await expectVisible(winner.getByText("Size", { exact: true }));
    for (const name of winnerColumns) assert.equal(await winners.getByRole("columnheader", { name, exact: true }).count(), 1);
    assert.deepEqual(await spokenCells(), ["1", email, "M", "Claim e-mailed", "#1"]);
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.equal(await winner.getByText("Size", { exact: true }).isVisible(), false);
    // A Draw pressed after the sweeper's is refused with 409, which Chromium reports.
    assert.deepEqual(
      problems.filter((p) => drawnByAdmin || !p.includes("status of 409")),
      [],
    );
    await page.getByRole("link", { name: "All draws" }).click();
    await page.waitForURL((url) => url.pathname === "/admin/draws");

    await row.getByRole("link", { name: "Public proof" }).click();
    await page.waitForURL((url) => url.pathname === `/api/draws/${draw.id}/proof`);
    await expectVisible(page.getByText(draw.commitment));
    if (drawnByAdmin) await expectVisible(page.getByText('"beacon":"e2e-beacon"'));
  });
}
