// The subscriber area end to end, with JavaScript (its widgets need it): sign-ups reach the list,
// the export downloads a CSV, the template loads, the campaign is previewed and sent, the outbox
// holds one message per subscriber, and the unsubscribe link in one of them works.
import assert from "node:assert/strict";
import fs from "node:fs";
import type { Page } from "playwright-core";
import { ADMIN, describe, expectVisible, newPage, signIn, test } from "./browser";
import { uniqueEmail, uniqueName } from "./support/data";

async function subscribe(page: Page, email: string) {
  await page.goto("/");
  const card = page.locator("#join");
  await card.getByLabel("Email", { exact: true }).fill(email);
  await card.getByRole("button", { name: "Sign Up" }).click();
  await card.getByRole("status").filter({ hasText: "Welcome to the legacy." }).waitFor();
}

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

describe("subscribers and bulk e-mail with JavaScript", () => {
  test("export, template, preview, send, and every subscriber's message in the outbox with a working unsubscribe link", async () => {
    // Subscribers and a subject of the test's own.
    const FANS = [uniqueEmail("mail-a"), uniqueEmail("mail-b")] as const;
    const SUBJECT = uniqueName("Drop news");
    const { page, problems } = await newPage();
    for (const email of FANS) await subscribe(page, email);

    await signIn(page, ADMIN);
    await page.waitForURL((url) => url.pathname === "/admin");
    await page.goto("/admin/subscribers");
    await expectVisible(page.getByRole("heading", { name: "Subscriber Management" }));
    const table = page.getByRole("table");
    for (const email of FANS) await expectVisible(table.getByRole("cell", { name: email, exact: true }));
    for (const column of ["#", "Email", "Subscribed On"])
      await expectVisible(table.getByRole("columnheader", { name: column, exact: true }));
    await expectVisible(page.getByText(/^Last updated /));
    const count = Number(await page.getByTestId("subscriber-count").textContent());
    assert.ok(count >= 2, `at least the two new subscribers are counted (${count})`);

    await page.getByRole("button", { name: "Refresh" }).click();
    await expectVisible(toast(page, "Refreshed"));

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export" }).click()]);
    assert.match(download.suggestedFilename(), /^subscribers-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs.readFileSync(await download.path(), "utf8");
    assert.match(csv, /^\uFEFF#,Email,Subscribed On \(New York time\)\r\n/);
    for (const email of FANS) assert.ok(csv.includes(`,${email},`), `${email} is in the CSV`);
    await expectVisible(toast(page, "Export Successful"));

    // The Email tab: the same component, opened on the composer.
    await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Email", exact: true }).click();
    await expectVisible(page.getByRole("heading", { name: "Email Subscribers" }));
    await page.getByRole("tab", { name: "Compose Email" }).waitFor();
    assert.equal(await page.getByRole("tab", { name: "Compose Email" }).getAttribute("aria-selected"), "true");
    await page.getByRole("button", { name: "Continue to Preview" }).click();
    await expectVisible(page.getByRole("alert").filter({ hasText: "Please provide both subject and content for your email" }));

    await page.getByRole("tab", { name: "Load Template" }).click();
    await page.getByRole("button", { name: "Load Template" }).click();
    await page.getByLabel("Subject").waitFor();
    assert.equal(await page.getByRole("tab", { name: "Compose Email" }).getAttribute("aria-selected"), "true");
    assert.equal(await page.getByLabel("Subject").inputValue(), "Product Launch Updates");
    assert.match(await page.getByLabel("HTML Content").inputValue(), /The drop is almost here/);
    await page.getByLabel("Subject").fill(SUBJECT);

    await page.getByRole("button", { name: "Continue to Preview" }).click();
    const preview = page.frameLocator('iframe[title="Email preview"]');
    await expectVisible(preview.getByRole("heading", { name: "The drop is almost here" }));
    assert.equal(await page.locator('iframe[title="Email preview"]').getAttribute("sandbox"), "");
    const send = page.getByRole("button", { name: /^Send to \d+ subscribers?$/ });
    assert.equal(await send.textContent(), `Send to ${count} subscribers`);
    await send.click();
    await expectVisible(toast(page, "Email Sent"), 15_000);
    await expectVisible(toast(page, `Email sent to ${count} subscribers`));
    // After a successful send the preview closes.
    await page.getByRole("button", { name: "Continue to Preview" }).waitFor();
    await expectVisible(page.getByTestId("campaign-row").filter({ hasText: SUBJECT }).getByText("Sent", { exact: true }));

    await page.getByRole("link", { name: "Outbox" }).click();
    await page.waitForURL("**/admin/outbox");
    await expectVisible(page.getByRole("heading", { name: "Outbox" }));
    await page.getByLabel("Search by recipient or subject").fill(SUBJECT);
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL((url) => url.searchParams.get("q") === SUBJECT);
    const rows = page.getByTestId("outbox-row");
    await expectVisible(rows);
    await expectVisible(page.getByRole("heading", { name: `Messages ${count} messages` }));
    assert.equal(await rows.count(), count, "one message per subscriber");
    const addressed = await rows.evaluateAll((links) => links.map((a) => a.textContent));
    for (const email of FANS) assert.equal(addressed.filter((t) => t?.includes(email)).length, 1, `${email} got exactly one`);

    await rows.filter({ hasText: FANS[0] }).click();
    await page.waitForURL((url) => url.searchParams.has("id"));
    const message = page.getByTestId("outbox-message");
    await expectVisible(message.getByText(FANS[0], { exact: true }));
    await expectVisible(message.getByText("List-Unsubscribe=One-Click"));
    const href = await message.frameLocator("iframe").getByRole("link", { name: "Unsubscribe" }).getAttribute("href");
    assert.ok(href, "the message has an unsubscribe link");
    assert.match(href, /\/unsubscribe\?token=\d+\.[\w-]{43}$/);
    assert.ok(((await page.getByTestId("outbox-text").textContent()) ?? "").includes(`Unsubscribe: ${href}`));

    await page.goto(href);
    await expectVisible(page.getByRole("heading", { name: `Unsubscribe ${FANS[0]}?` }));
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expectVisible(page.getByRole("heading", { name: "You're unsubscribed" }));

    await page.goto("/admin/subscribers");
    await expectVisible(page.getByRole("cell", { name: FANS[1], exact: true }));
    assert.equal(await page.getByRole("cell", { name: FANS[0], exact: true }).count(), 0, "the unsubscribed address left the list");

    const forged = await page.goto(href.replace(/.{4}$/, "AAAA"));
    assert.equal(forged?.status(), 400);
    await expectVisible(page.getByRole("heading", { name: "This unsubscribe link is not valid." }));
    assert.deepEqual(
      problems.filter((p) => !p.includes("400")),
      [],
    );
  });
});
