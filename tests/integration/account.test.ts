import type { ActionFunctionArgs } from "@remix-run/node";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as accountPage from "#app/routes/admin.settings";
import { PASSWORD_MESSAGES } from "#server/contracts/admin-settings";
import { useAppContextForTests } from "#server/boot";
import { resetPasswordChangeLimits } from "#server/services/accounts/account";
import { hashPassword } from "#server/services/accounts/passwords";
import { ensureAdmin, resetLoginLimits } from "#server/services/accounts/users";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";

const ctx = createTestContext();
const ORIGINAL = "boss-password";

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "boss", password: ORIGINAL, email: "boss@example.com" });
});
beforeEach(async () => {
  await resetLoginLimits(ctx);
  await resetPasswordChangeLimits(ctx);
  // Every test starts from the original password and no sessions.
  await ctx.db
    .updateTable("users")
    .set({ passwordHash: await hashPassword(ORIGINAL) })
    .where("username", "=", "boss")
    .execute();
  await ctx.db.deleteFrom("sessions").execute();
});

async function signIn(password = ORIGINAL) {
  const jar = new CookieJar();
  const response = await api("POST", "/api/login", { body: { username: "boss", password }, jar });
  return { jar, status: response.status };
}
const change = (jar: CookieJar, body: unknown) => api("POST", "/api/admin/change-password", { body, jar });
const whoAmI = async (jar: CookieJar) => (await api("GET", "/api/user", { jar })).status;

/** Posts the Account page's form, as the browser does with or without JavaScript. */
async function postAccountForm(jar: CookieJar, fields: Record<string, string>) {
  const request = new Request("http://localhost/admin/settings", {
    method: "POST",
    headers: { Cookie: jar.header(), "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
  const response = (await accountPage.action({ request, params: {}, context: {} } as ActionFunctionArgs)) as unknown;
  // Remix's data() wraps the body; read it the way the router would.
  const wrapped = response as { data: Record<string, unknown>; init: { status?: number } | null };
  return { status: wrapped.init?.status ?? 200, body: wrapped.data };
}

describe("POST /api/admin/change-password", () => {
  it.each([
    [{ currentPassword: "", newPassword: "new-secret" }, "currentPassword", PASSWORD_MESSAGES.currentRequired],
    [{ newPassword: "new-secret" }, "currentPassword", PASSWORD_MESSAGES.currentRequired],
    [{ currentPassword: ORIGINAL, newPassword: "short" }, "newPassword", "New password must be at least 6 characters"],
    [{ currentPassword: ORIGINAL, newPassword: "new-secret", confirmPassword: "new-secrex" }, "confirmPassword", "Passwords don't match"],
  ])("refuses %j with the spec's message on %s", async (body, field, message) => {
    const { jar } = await signIn();
    const response = await change(jar, body);
    expect(response.status).toBe(400);
    expect((await response.json()).errors[field]).toEqual([message]);
    expect((await signIn()).status).toBe(200);
  });

  it("refuses a wrong current password on the currentPassword field and changes nothing", async () => {
    const { jar } = await signIn();
    const response = await change(jar, { currentPassword: "not-it", newPassword: "new-secret" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      message: "Current password is incorrect",
      errors: { currentPassword: ["Current password is incorrect"] },
    });
    expect((await signIn()).status).toBe(200);
    expect((await signIn("new-secret")).status).toBe(401);
  });

  it("changes the password, signs out the other sessions and keeps this one", async () => {
    const here = await signIn();
    const phone = await signIn();
    const laptop = await signIn();
    const response = await change(here.jar, { currentPassword: ORIGINAL, newPassword: "new-secret", confirmPassword: "new-secret" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: "Password updated" });

    expect(await whoAmI(here.jar)).toBe(200);
    expect(await whoAmI(phone.jar)).toBe(401);
    expect(await whoAmI(laptop.jar)).toBe(401);
    expect(await ctx.db.selectFrom("sessions").select("id").execute()).toHaveLength(1);

    expect((await signIn(ORIGINAL)).status).toBe(401);
    expect((await signIn("new-secret")).status).toBe(200);
  });

  it("limits wrong current passwords per user with 429", async () => {
    const { jar } = await signIn();
    for (let i = 0; i < 5; i++) expect((await change(jar, { currentPassword: `guess-${i}`, newPassword: "new-secret" })).status).toBe(400);
    const blocked = await change(jar, { currentPassword: ORIGINAL, newPassword: "new-secret" });
    expect(blocked.status).toBe(429);
    expect((await blocked.json()).message).toMatch(/^Too many incorrect passwords\. Please wait \d+ minutes? and try again\.$/);
  });
});

describe("the Account page's password form", () => {
  it("asks for the confirmation and reports a mismatch on it, never echoing passwords", async () => {
    const { jar } = await signIn();
    const missing = await postAccountForm(jar, { intent: "change-password", currentPassword: ORIGINAL, newPassword: "new-secret" });
    expect(missing.status).toBe(400);
    expect(missing.body.lastResult).toMatchObject({ error: { confirmPassword: ["Please confirm your new password"] } });
    const mismatch = await postAccountForm(jar, {
      intent: "change-password",
      currentPassword: ORIGINAL,
      newPassword: "new-secret",
      confirmPassword: "other-secret",
    });
    expect(mismatch.body.lastResult).toMatchObject({ error: { confirmPassword: ["Passwords don't match"] } });
    expect(JSON.stringify(mismatch.body)).not.toContain(ORIGINAL);
  });

  it("shows the wrong current password on its field with the 'Error changing password' notice", async () => {
    const { jar } = await signIn();
    const wrong = await postAccountForm(jar, {
      intent: "change-password",
      currentPassword: "nope",
      newPassword: "new-secret",
      confirmPassword: "new-secret",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({
      notice: { kind: "error", title: "Error changing password", description: "Current password is incorrect" },
      lastResult: { error: { currentPassword: ["Current password is incorrect"] } },
    });
  });

  it("updates the password, keeps this session and says 'Password updated'", async () => {
    const here = await signIn();
    const other = await signIn();
    const done = await postAccountForm(here.jar, {
      intent: "change-password",
      currentPassword: ORIGINAL,
      newPassword: "form-secret",
      confirmPassword: "form-secret",
    });
    expect(done.status).toBe(200);
    expect(done.body.notice).toMatchObject({ kind: "success", title: "Password updated" });
    expect(await whoAmI(here.jar)).toBe(200);
    expect(await whoAmI(other.jar)).toBe(401);
    expect((await signIn("form-secret")).status).toBe(200);
  });

  it("runs the shipping test and shows what the label says", async () => {
    const { jar } = await signIn();
    const result = await postAccountForm(jar, { intent: "test-shipping" });
    expect(result.status).toBe(200);
    expect(result.body.result).toMatchObject({
      details: { trackingNumber: expect.any(String), labelUrl: expect.stringMatching(/^\/api\/admin\/labels\//) },
    });
  });
});

describe("tRPC admin.settings.changePassword", () => {
  it("gives the same messages as REST", async () => {
    const { jar } = await signIn();
    const response = await api("POST", "/api/trpc/admin.settings.changePassword", {
      body: { currentPassword: "wrong", newPassword: "new-secret" },
      jar,
    });
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.message).toBe("Current password is incorrect");
    expect(error.data.fieldErrors).toEqual({ currentPassword: ["Current password is incorrect"] });
  });
});
