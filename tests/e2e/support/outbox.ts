// Reading the store's e-mail as a test must: in the local outbox, as an admin sees it at
// /admin/outbox (every message the store sent is kept there in local mode).
import type { Page } from "playwright-core";
import { ADMIN, newPage, signIn } from "../browser";

/** A desk-sized page signed in as the e2e admin, for reading the outbox. */
export async function outboxReader(): Promise<Page> {
  const { page } = await newPage({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  await signIn(page, ADMIN);
  // The sign-in's answer must be in before the next page is asked for, or the session is not yet set.
  await page.waitForURL((url) => url.pathname.startsWith("/admin") && !url.pathname.includes("login"));
  return page;
}

/**
 * The first match of `pattern` in the plain text of the newest message to `email` whose subject
 * contains `subject`; asked again for a few seconds, as mail sent after an answer may come later.
 */
export async function findInOutbox(admin: Page, email: string, subject: string, pattern: RegExp): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    await admin.goto(`/admin/outbox?q=${encodeURIComponent(email)}`);
    const rows = admin.getByTestId("outbox-row").filter({ hasText: subject });
    if ((await rows.count()) > 0) {
      await rows.first().click();
      await admin.waitForURL((url) => url.searchParams.has("id"));
      const text = (await admin.getByTestId("outbox-text").textContent()) ?? "";
      const found = pattern.exec(text);
      if (found) return found[1] ?? found[0];
    }
    await admin.waitForTimeout(500);
  }
  throw new Error(`No e-mail to ${email} about "${subject}" with ${pattern} in the outbox`);
}
