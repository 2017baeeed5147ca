import assert from "node:assert/strict";
import { describe, expectVisible, MODES, newPage, test } from "./browser";

for (const mode of MODES) {
  describe(`support ${mode.name}`, () => {
    test("an invalid message shows the spec's messages; a valid one reaches Message Sent!", async () => {
      const { page, problems } = await newPage(mode);
      await page.goto("/support");
      await expectVisible(page.getByRole("heading", { name: "Get Support" }));
      await expectVisible(page.getByText("Hours: Monday-Friday 9 AM-6 PM EST"));
      await expectVisible(page.getByRole("heading", { name: "Common Issues" }));

      await page.getByLabel("Name").fill("R");
      await page.getByLabel("Email").fill("not-an-email");
      await page.getByLabel("Subject").fill("Hey");
      await page.getByLabel("Message", { exact: true }).fill("short");
      await page.getByRole("button", { name: "Send Message" }).click();
      await expectVisible(page.getByText("Name must be at least 2 characters"));
      await expectVisible(page.getByText("Please enter a valid email address"));
      await expectVisible(page.getByText("Subject must be at least 5 characters"));
      await expectVisible(page.getByText("Message must be at least 10 characters"));

      await page.getByLabel("Name").fill("Rosa Díaz");
      await page.getByLabel("Email").fill("rosa@example.com");
      await page.getByLabel("What is it about?").selectOption({ label: "Shipping & Delivery" });
      await page.getByLabel("Subject").fill("Where is my hoodie?");
      await page.getByLabel("Message", { exact: true }).fill("It has been a week since the drop and nothing yet.");
      await page.getByRole("button", { name: "Send Message" }).click();
      await expectVisible(page.getByRole("heading", { name: "Message Sent!" }));
      if (mode.javaScriptEnabled) await expectVisible(page.getByText("Message sent successfully"));

      await page.getByRole("link", { name: "Send Another Message" }).click();
      await expectVisible(page.getByRole("button", { name: "Send Message" }));
      assert.equal(await page.getByLabel("Subject").inputValue(), "");
      // Without JavaScript the form's 400 answer is the document itself, which Chromium logs.
      assert.deepEqual(
        problems.filter((p) => !p.includes("status of 400")),
        [],
      );
    });
  });
}
