import { describe, expect, it } from "vitest";
import { ADMIN_DRAW_MESSAGES, drawFormToBody, parseUnitsText, storeDateTimeToIso } from "#server/contracts/admin-draws";

// Issue 26: the admin Draws tab's create form, as a browser posts it, into the REST body.
describe("the admin's draw form", () => {
  it("reads units as blank, a number, or sizes", () => {
    expect(parseUnitsText("  ")).toBeUndefined();
    expect(parseUnitsText("12")).toBe(12);
    expect(parseUnitsText("S=2, M = 3,XL:0")).toEqual({ S: 2, M: 3, XL: 0 });
    for (const bad of ["-1", "S=", "S=2,S=3", "2.5", "S=two", "=4", "x".repeat(1001)]) expect(parseUnitsText(bad)).toBeNull();
  });

  it("reads a datetime-local value as New York time", () => {
    expect(storeDateTimeToIso("2026-07-04T18:30")).toBe("2026-07-04T22:30:00.000Z");
    expect(storeDateTimeToIso("2026-01-10T09:00")).toBe("2026-01-10T14:00:00.000Z");
    expect(storeDateTimeToIso("2026-03-08T02:30")).toBeNull();
    expect(storeDateTimeToIso("tomorrow")).toBeNull();
  });

  it("gives the REST body, or every wrong field's message", () => {
    expect(
      drawFormToBody({
        productId: "7",
        entriesOpenAt: "2026-07-04T18:30",
        entriesCloseAt: "2026-07-05T18:30",
        claimMinutes: "",
        units: "",
      }),
    ).toEqual({
      body: { productId: 7, entriesOpenAt: "2026-07-04T22:30:00.000Z", entriesCloseAt: "2026-07-05T22:30:00.000Z", claimMinutes: 1440 },
    });
    expect(drawFormToBody({ productId: "", entriesOpenAt: "", entriesCloseAt: "x", claimMinutes: "ten", units: "S=" })).toEqual({
      fields: {
        productId: [ADMIN_DRAW_MESSAGES.product],
        entriesOpenAt: [ADMIN_DRAW_MESSAGES.openAt],
        entriesCloseAt: [ADMIN_DRAW_MESSAGES.closeAt],
        claimMinutes: [ADMIN_DRAW_MESSAGES.claimMinutes],
        units: [ADMIN_DRAW_MESSAGES.units],
      },
    });
  });
});
