import { beforeAll, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import { appSettingsAction, appSettingsLoader } from "#server/http/doors/admin-settings-door";
import { ensureAdmin } from "#server/services/accounts/users";
import { alertRecipients } from "#server/services/alerts/alert-recipients";
import { api, CookieJar } from "../setup/http";
import { createTestContext } from "../setup/context";
import { runRoute } from "./store-helpers";

const ctx = createTestContext({ ADMIN_EMAIL: "owner@legacy.test" });
const admin = new CookieJar();

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "b@example.com" });
  await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin });
});

type Answer = { notice: { kind: string; title: string; description: string }; lastResult: { error?: Record<string, string[]> } };
const save = (recipients: string, jar = admin) =>
  runRoute<Answer>(appSettingsAction, { path: "/admin/app-settings", form: { intent: "alert-recipients", recipients }, jar });

describe("App Settings: who gets the alerts (issue 27)", () => {
  it("shows the admin address until a list is set, then saves the list the admin typed", async () => {
    const page = await runRoute<{ settings: { alertRecipients: string[] } }>(appSettingsLoader, {
      path: "/admin/app-settings",
      jar: admin,
    });
    expect(page.data.settings.alertRecipients).toEqual(["owner@legacy.test"]);

    const saved = await save("oncall@legacy.test; ops@legacy.test");
    expect(saved.status).toBe(200);
    expect(saved.data.notice).toMatchObject({
      kind: "success",
      title: "Alert Recipients Updated",
      description: "Alerts now go to oncall@legacy.test, ops@legacy.test.",
    });
    expect(await alertRecipients(ctx)).toEqual(["oncall@legacy.test", "ops@legacy.test"]);
  });

  it("refuses a list with something not an address beside the field, and keeps the old list", async () => {
    const refused = await save("oncall@legacy.test, not-an-address");
    expect(refused.status).toBe(400);
    expect(refused.data.notice.title).toBe("Failed to Update Alert Recipients");
    expect(refused.data.lastResult.error?.recipients).toEqual(["Enter e-mail addresses separated by commas."]);
    expect(await alertRecipients(ctx)).toEqual(["oncall@legacy.test", "ops@legacy.test"]);
  });

  it("goes back to the admin address when emptied, and is closed to strangers", async () => {
    expect((await save("")).status).toBe(200);
    expect(await alertRecipients(ctx)).toEqual(["owner@legacy.test"]);
    const stranger = await save("attacker@evil.test", new CookieJar());
    expect(stranger.status).not.toBe(200);
    expect(await alertRecipients(ctx)).toEqual(["owner@legacy.test"]);
  });
});
