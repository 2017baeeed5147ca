import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as errorPages from "#app/components/error-pages";

// Every page a person can land on has a boundary, so a failing loader shows the store's error
// page with a way back, not a blank one. Found by enumeration: a new page is covered the day it lands.
const routesDir = path.resolve("app/routes");
const pageFiles = fs.readdirSync(routesDir).filter((f) => f.endsWith(".tsx"));

describe("every page route", () => {
  it("exists (the enumeration found the pages)", () => {
    expect(pageFiles.length).toBeGreaterThan(20);
  });

  for (const file of pageFiles) {
    it(`${file}: has an ErrorBoundary when it renders a page`, async () => {
      const mod = (await import(path.join(routesDir, file))) as { default?: unknown; ErrorBoundary?: unknown };
      if (!mod.default) return; // a loader-only route (a redirect) renders nothing to fail
      expect(mod.ErrorBoundary, file).toBeTypeOf("function");
    });
  }

  it("the layout has the shared one too", async () => {
    const root = (await import("#app/root")) as { ErrorBoundary?: unknown };
    expect(root.ErrorBoundary).toBe(errorPages.ErrorBoundary);
  });
});
