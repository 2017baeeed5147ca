import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as adminLoginRoute from "#app/routes/admin_.login";
import * as authRoute from "#app/routes/auth";
import { useAppContextForTests } from "#server/boot";
import { ensureAdmin, resetLoginLimits } from "#server/services/accounts/users";
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
beforeEach(() => resetLoginLimits(ctx));

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

/**
 * Where the browser ends up: a sign-in answers with one hop back to the login screen (which checks
 * that the session cookie was kept, decision 0011), and that screen sends it on.
 */
async function landing(
  path: string,
  route: (typeof screens)[number][1],
  signedIn: { status: number; headers: Headers },
  jar = new CookieJar(),
) {
  expect(signedIn.status).toBe(302);
  const hop = signedIn.headers.get("Location") ?? "";
  expect(hop.startsWith(`${path}?`)).toBe(true);
  const onward = await runRoute(route.loader, { path: hop, jar });
  expect(onward.status).toBe(302);
  return onward.headers.get("Location");
}

for (const [path, route] of screens) {
  describe(`signing in at ${path}`, () => {
    it.each(HOSTILE_REDIRECTS)("with a hostile redirectTo (%s) lands on /admin, signed in", async (_name, hostile) => {
      const { screen, signedIn, jar } = await signInWith(path, route, hostile);
      expect(screen.data.redirectTo).toBe("/admin");
      expect(jar.has("session")).toBe(true);
      expect(await landing(path, route, signedIn, jar)).toBe("/admin");
    });

    it.each(HOSTILE_REDIRECTS.filter(([name]) => name !== "NUL"))(
      "refuses a hostile redirectTo (%s) posted by hand, too",
      async (_name, hostile) => {
        const jar = new CookieJar();
        const signedIn = await runRoute(route.action, { path, form: { ...admin, redirectTo: hostile }, jar });
        expect(await landing(path, route, signedIn, jar)).toBe("/admin");
      },
    );

    // A form with NUL in any field is refused whole, as text PostgreSQL cannot keep (decision 0040).
    it("refuses a form posted by hand with NUL in its redirectTo: 400, not signed in", async () => {
      const jar = new CookieJar();
      const refused = await runRoute(route.action, { path, form: { ...admin, redirectTo: "/admin\u0000" }, jar });
      expect(refused.status).toBe(400);
      expect(refused.data).toBe("Text must be valid Unicode: this has a broken character in it.");
      expect(jar.header()).not.toContain("session=");
    });

    it("returns to the admin page the visitor was going to", async () => {
      const { screen, signedIn, jar } = await signInWith(path, route, "/admin/orders?status=paid");
      expect(screen.data.redirectTo).toBe("/admin/orders?status=paid");
      expect(await landing(path, route, signedIn, jar)).toBe("/admin/orders?status=paid");
    });

    it("goes to /admin when no redirectTo is given", async () => {
      const screen = await runRoute<{ redirectTo: string }>(route.loader, { path });
      expect(screen.data.redirectTo).toBe("/admin");
    });
  });
}
