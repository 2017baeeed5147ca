import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as adminLoginRoute from "../../app/routes/admin_.login";
import * as authRoute from "../../app/routes/auth";
import { useAppContextForTests } from "../../server/boot";
import { ensureAdmin, resetLoginLimits } from "../../server/services/users";
import { HOSTILE_REDIRECTS } from "../fixtures/hostile-redirects";
import { createTestContext } from "../setup/context";
import { CookieJar } from "../setup/http";
import { runRoute } from "./store-helpers";

const ctx = createTestContext();
const admin = { username: "boss", password: "boss-password" };
const screens = [
  ["/auth", authRoute],
  ["/admin/login", adminLoginRoute],
] as const;

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { ...admin, email: "boss@example.com" });
});
beforeEach(() => resetLoginLimits());

/** Signs in with the form the screen rendered, as a browser without JavaScript posts it. */
async function signInWith(path: string, route: (typeof screens)[number][1], redirectTo: string) {
  const jar = new CookieJar();
  const screen = await runRoute<{ redirectTo: string }>(route.loader, { path: `${path}?redirectTo=${encodeURIComponent(redirectTo)}` });
  expect(screen.status).toBe(200);
  const signedIn = await runRoute(route.action, {
    path: `${path}?redirectTo=${encodeURIComponent(redirectTo)}`,
    form: { ...admin, redirectTo: screen.data.redirectTo },
    jar,
  });
  return { screen, signedIn, jar };
}

for (const [path, route] of screens) {
  describe(`signing in at ${path}`, () => {
    it.each(HOSTILE_REDIRECTS)("with a hostile redirectTo (%s) lands on /admin, signed in", async (_name, hostile) => {
      const { screen, signedIn, jar } = await signInWith(path, route, hostile);
      expect(screen.data.redirectTo).toBe("/admin");
      expect(signedIn.status).toBe(302);
      expect(signedIn.headers.get("Location")).toBe("/admin");
      expect(jar.has("session")).toBe(true);
    });

    it.each(HOSTILE_REDIRECTS)("refuses a hostile redirectTo (%s) posted by hand, too", async (_name, hostile) => {
      const signedIn = await runRoute(route.action, { path, form: { ...admin, redirectTo: hostile } });
      expect(signedIn.status).toBe(302);
      expect(signedIn.headers.get("Location")).toBe("/admin");
    });

    it("returns to the admin page the visitor was going to", async () => {
      const { screen, signedIn } = await signInWith(path, route, "/admin/orders?status=paid");
      expect(screen.data.redirectTo).toBe("/admin/orders?status=paid");
      expect(signedIn.status).toBe(302);
      expect(signedIn.headers.get("Location")).toBe("/admin/orders?status=paid");
    });

    it("goes to /admin when no redirectTo is given", async () => {
      const screen = await runRoute<{ redirectTo: string }>(route.loader, { path });
      expect(screen.data.redirectTo).toBe("/admin");
    });
  });
}
