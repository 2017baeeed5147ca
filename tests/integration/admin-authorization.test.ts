import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import * as registerRoute from "../../app/routes/api.register";
import { useAppContextForTests } from "../../server/boot";
import { createCallerFactory } from "../../server/trpc/init";
import { appRouter } from "../../server/trpc/router";
import { createTestContext } from "../setup/context";
import { call, CookieJar } from "../setup/http";

/**
 * Every admin door, found by enumeration rather than listed by hand, so a new admin route or
 * procedure is covered the day it is added: anonymous callers get 401, non-admins 403.
 */
const ctx = createTestContext();
const shopper = new CookieJar();
const routesDir = path.resolve("app/routes");
const adminRouteFiles = fs.readdirSync(routesDir).filter((f) => /^api\.admin\..+\.tsx?$/.test(f));
const params = { id: "1", imageId: "1", productId: "1", file: "export.csv" };

type Handler = Parameters<typeof call>[0];
interface RouteModule {
  loader?: Handler;
  action?: Handler;
}

beforeAll(async () => {
  useAppContextForTests(ctx);
  await call(registerRoute.action, { method: "POST", body: { username: "shopper", password: "shopper1", email: "s@example.com" }, jar: shopper });
});

describe("every admin REST route", () => {
  it("exists (the enumeration found the admin API)", () => {
    expect(adminRouteFiles.length).toBeGreaterThan(0);
  });

  for (const file of adminRouteFiles) {
    it(`${file}: 401 for visitors, 403 for non-admins, on every method`, async () => {
      const mod = (await import(path.join(routesDir, file))) as RouteModule;
      const doors: [string, Handler][] = [];
      if (mod.loader) doors.push(["GET", mod.loader]);
      if (mod.action) for (const method of ["POST", "PATCH", "DELETE"]) doors.push([method, mod.action]);
      expect(doors.length).toBeGreaterThan(0);
      for (const [method, handler] of doors) {
        const body = method === "GET" || method === "DELETE" ? undefined : {};
        const anonymous = await call(handler, { method, body, params });
        if (anonymous.status === 405) continue; // this method is not served at all
        expect(anonymous.status, `${method} ${file} anonymous`).toBe(401);
        const ordinary = await call(handler, { method, body, params, jar: shopper });
        expect(ordinary.status, `${method} ${file} non-admin`).toBe(403);
      }
    });
  }
});

describe("every admin tRPC procedure", () => {
  const procedures = Object.keys(appRouter._def.procedures).filter((name) => name.startsWith("admin."));
  const createCaller = createCallerFactory(appRouter);

  it("exists (the enumeration found admin procedures)", () => {
    expect(procedures.length).toBeGreaterThan(0);
  });

  for (const name of procedures) {
    it(`${name}: UNAUTHORIZED for visitors, FORBIDDEN for non-admins`, async () => {
      const invoke = (user: { id: number; username: string; email: string; isAdmin: boolean } | null) => {
        const caller = createCaller({ app: ctx, user, clientIp: "203.0.113.1" }) as unknown as Record<string, unknown>;
        const fn = name.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (input?: unknown) => Promise<unknown>;
        return fn({});
      };
      await expect(invoke(null)).rejects.toMatchObject({ code: "UNAUTHORIZED", message: "Please sign in to continue." });
      await expect(invoke({ id: 999, username: "shopper", email: "s@example.com", isAdmin: false })).rejects.toMatchObject({
        code: "FORBIDDEN",
        message: "Admin access is required.",
      });
    });
  }
});

describe("every admin page", () => {
  // admin._index only forwards to a tab, whose own loader is the guarded one.
  const pageFiles = fs.readdirSync(routesDir).filter((f) => /^admin(\.(?!_index\.).+)?\.tsx$/.test(f));

  it("exists (the enumeration found the admin pages)", () => {
    expect(pageFiles).toContain("admin.tsx");
    expect(pageFiles.length).toBeGreaterThan(1);
  });

  /** A guard throws its redirect: catch it as the response Remix would send. */
  const visit = async (handler: Handler, path: string, jar?: CookieJar) => {
    try {
      return await call(handler, { path, jar });
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  };

  for (const file of pageFiles) {
    it(`${file}: visitors are sent to sign in and back, non-admins home`, async () => {
      const mod = (await import(path.join(routesDir, file))) as RouteModule;
      expect(mod.loader, file).toBeDefined();
      const anonymous = await visit(mod.loader!, "/admin/somewhere?tab=2");
      expect(anonymous.status).toBe(302);
      expect(anonymous.headers.get("Location")).toBe(`/auth?redirectTo=${encodeURIComponent("/admin/somewhere?tab=2")}`);
      const ordinary = await visit(mod.loader!, "/admin/somewhere", shopper);
      expect(ordinary.status).toBe(302);
      expect(ordinary.headers.get("Location")).toBe("/");
    });
  }
});
