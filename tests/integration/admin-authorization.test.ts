import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { apiRouter } from "#server/api/dispatch";
import { useAppContextForTests } from "#server/boot";
import { createCallerFactory } from "#server/trpc/init";
import { appRouter } from "#server/trpc/router";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { runRoute } from "./store-helpers";

/**
 * Every admin door, found by enumeration rather than listed by hand, so a new admin route or
 * procedure is covered the day it is added: anonymous callers get 401, non-admins 403.
 */
const ctx = createTestContext();
const shopper = new CookieJar();
const adminPaths = apiRouter.entries.filter((entry) => [...entry.routes.values()].every((route) => route.guard === "admin"));
// Path parameters filled with values that exist in shape, so only the guard can refuse.
const concrete = (path: string) => path.replace(/:(\w+)/g, (_, name: string) => (name === "file" ? "export.csv" : "1"));

beforeAll(async () => {
  useAppContextForTests(ctx);
  await api("POST", "/api/register", { body: { username: "shopper", password: "shopper1", email: "s@example.com" }, jar: shopper });
});

describe("every admin REST route", () => {
  it("exists (the enumeration found the admin API)", () => {
    expect(adminPaths.length).toBeGreaterThan(0);
  });

  for (const entry of adminPaths) {
    it(`${entry.path}: 401 for visitors, 403 for non-admins, on every method`, async () => {
      // Served or not: a method the path does not serve must not tell an outsider that either.
      for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]) {
        const body = method === "GET" || method === "HEAD" || method === "DELETE" ? undefined : {};
        const anonymous = await api(method, concrete(entry.path), { body });
        expect(anonymous.status, `${method} ${entry.path} anonymous`).toBe(401);
        const ordinary = await api(method, concrete(entry.path), { body, jar: shopper });
        expect(ordinary.status, `${method} ${entry.path} non-admin`).toBe(403);
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
        const fn = name.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (
          input?: unknown,
        ) => Promise<unknown>;
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
  const pageFiles = fs.readdirSync(path.resolve("app/routes")).filter((f) => /^admin(\.(?!_index\.).+)?\.tsx$/.test(f));

  it("exists (the enumeration found the admin pages)", () => {
    expect(pageFiles).toContain("admin.tsx");
    expect(pageFiles.length).toBeGreaterThan(1);
  });

  const routesDir = path.resolve("app/routes");
  const visit = (loader: Parameters<typeof runRoute>[0], at: string, jar?: CookieJar) => runRoute(loader, { path: at, jar });

  for (const file of pageFiles) {
    it(`${file}: visitors are sent to sign in and back, non-admins home`, async () => {
      const mod = (await import(path.join(routesDir, file))) as { loader?: Parameters<typeof runRoute>[0] };
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
