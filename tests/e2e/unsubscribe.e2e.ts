// The unsubscribe page keeps its token out of Referer (`<meta name="referrer" content="no-referrer">`),
// so Chromium posts its button with `Origin: null`. The store's own form must still work, with and
// without JavaScript, while the same post from another site is refused.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { BASE_URL, describe, expectVisible, MODES, newPage, test } from "./browser";
import { adminApi, uniqueEmail } from "./support/data";

/** A subscriber of this test's own, and the link their e-mail would carry (server/services/mail/unsubscribe.ts). */
async function subscriberLink(): Promise<{ email: string; url: string }> {
  const email = uniqueEmail("unsubscribe");
  const api = await adminApi();
  const created = await api.post("/api/subscribe", { data: { email } });
  assert.equal(created.status(), 201, await created.text());
  const { id } = (await created.json()) as { id: number };
  const secret = fs.readFileSync(path.join(process.env.E2E_DATA_DIR!, ".session-secret"), "utf8").trim();
  const mac = createHmac("sha256", secret).update(`legacy-store/unsubscribe/v1:${id}`).digest("base64url");
  return { email, url: `${BASE_URL}/unsubscribe?token=${id}.${mac}` };
}

async function stillSubscribed(email: string): Promise<boolean> {
  const api = await adminApi();
  const answer = await api.get("/api/admin/subscribers?pageSize=500");
  const { subscribers } = (await answer.json()) as { subscribers: { email: string }[] };
  return subscribers.some((s) => s.email === email);
}

for (const mode of MODES) {
  describe(`unsubscribe ${mode.name}`, () => {
    test("the page's own button unsubscribes (Chromium sends Origin: null under no-referrer)", async () => {
      const { email, url } = await subscriberLink();
      const { page, problems } = await newPage(mode);
      const posts: { origin: string | undefined; status: number }[] = [];
      page.on("response", (response) => {
        if (response.request().method() === "POST")
          posts.push({ origin: response.request().headers()["origin"], status: response.status() });
      });
      await page.goto(url);
      await expectVisible(page.getByRole("heading", { name: `Unsubscribe ${email}?` }));
      await page.getByRole("button", { name: "Unsubscribe" }).click();
      await expectVisible(page.getByRole("heading", { name: "You're unsubscribed" }));
      assert.ok(posts.length > 0 && posts.every((p) => p.status === 200), JSON.stringify(posts));
      assert.equal(await stillSubscribed(email), false);
      assert.deepEqual(problems, []);
    });
  });
}

describe("unsubscribe from another site", () => {
  test("a form on another site posting to the link is refused and changes nothing", async () => {
    const { email, url } = await subscriberLink();
    const { page, context } = await newPage({ javaScriptEnabled: false, allowHosts: ["evil.example"] });
    await context.route("http://evil.example/**", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><form method="post" action="${url}"><button>Win a hoodie</button></form>`,
      }),
    );
    await page.goto("http://evil.example/");
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.url() === url && response.request().method() === "POST"),
      page.getByRole("button", { name: "Win a hoodie" }).click(),
    ]);
    assert.equal(answer.status(), 403);
    assert.equal(await stillSubscribed(email), true);
  });
});
