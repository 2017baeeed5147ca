import { afterAll, describe, expect, it } from "vitest";
import { productFormSchema, PRODUCT_MESSAGES } from "../../server/contracts/admin-products";
import { storeWallClockToUtc, utcToStoreWallClock } from "../../server/contracts/store-time";

const iso = (date: string, time: string) => storeWallClockToUtc(date, time)?.toISOString() ?? null;

// The answer must not depend on the server's own zone.
const originalTz = process.env.TZ;
afterAll(() => {
  process.env.TZ = originalTz;
});

// date-fns-tz alone reads the repeated hour differently east of Greenwich: Tokyo and Sydney are here for that.
describe.each(["UTC", "America/Los_Angeles", "America/New_York", "Asia/Tokyo", "Australia/Sydney"])(
  "New York wall clock → UTC, on a server in %s",
  (zone) => {
    it("uses EST in winter and EDT in summer", () => {
      process.env.TZ = zone;
      expect(iso("2026-01-15", "12:00")).toBe("2026-01-15T17:00:00.000Z");
      expect(iso("2026-07-04", "20:30")).toBe("2026-07-05T00:30:00.000Z");
    });

    // Second Sunday of March 2026: at 2:00 AM EST the clocks jump to 3:00 AM EDT.
    it("refuses 2:30 AM on the spring-forward Sunday, a time that never happens, and keeps the minutes around it", () => {
      process.env.TZ = zone;
      expect(iso("2026-03-08", "01:59")).toBe("2026-03-08T06:59:00.000Z"); // EST
      expect(iso("2026-03-08", "02:00")).toBeNull();
      expect(iso("2026-03-08", "02:30")).toBeNull();
      expect(iso("2026-03-08", "02:59")).toBeNull();
      expect(iso("2026-03-08", "03:00")).toBe("2026-03-08T07:00:00.000Z"); // EDT: one minute after 01:59
    });

    // First Sunday of November 2026: at 2:00 AM EDT the clocks go back to 1:00 AM EST.
    it("reads 1:30 AM on the fall-back Sunday, which happens twice, as the first time (EDT)", () => {
      process.env.TZ = zone;
      expect(iso("2026-11-01", "00:59")).toBe("2026-11-01T04:59:00.000Z"); // EDT
      expect(iso("2026-11-01", "01:30")).toBe("2026-11-01T05:30:00.000Z"); // EDT, not 06:30Z (EST)
      expect(iso("2026-11-01", "02:00")).toBe("2026-11-01T07:00:00.000Z"); // EST
    });
  },
);

describe("storeWallClockToUtc", () => {
  // Tokyo, where fromZonedTime alone would give the repeated hour's second instant.
  const tokyo = () => (process.env.TZ = "Asia/Tokyo");

  it("refuses days and times that do not exist", () => {
    expect(iso("2026-02-30", "10:00")).toBeNull();
    expect(iso("2026-13-01", "10:00")).toBeNull();
    expect(iso("2026-07-04", "24:00")).toBeNull();
    expect(iso("2026-07-04", "9:30")).toBeNull();
    expect(iso("07/04/2026", "09:30")).toBeNull();
  });

  it("round-trips with utcToStoreWallClock, the fall-back's second 1:30 included", () => {
    tokyo();
    expect(utcToStoreWallClock("2026-07-05T00:30:00.000Z")).toEqual({ date: "2026-07-04", time: "20:30" });
    expect(utcToStoreWallClock(storeWallClockToUtc("2026-03-08", "03:00")!)).toEqual({ date: "2026-03-08", time: "03:00" });
    expect(utcToStoreWallClock("2026-11-01T06:30:00.000Z")).toEqual({ date: "2026-11-01", time: "01:30" });
  });
});

describe("the product form's release time (the same rule as the countdown)", () => {
  const tokyo = () => (process.env.TZ = "Asia/Tokyo");

  const form = (date: string, time: string) => ({
    name: "Drop tee",
    description: "A limited tee for the drop.",
    price: "40",
    inventory: "5",
    discountPercent: "0",
    weight: "1",
    length: "10",
    width: "8",
    height: "2",
    isCountdownRestricted: "on",
    countdownDate: date,
    countdownTime: time,
  });

  it("stores the fall-back's 1:30 AM as its first occurrence, wherever the browser is", () => {
    tokyo();
    const parsed = productFormSchema.safeParse(form("2026-11-01", "01:30"));
    expect(parsed.success && parsed.data.countdownReleaseDate).toBe("2026-11-01T05:30:00.000Z");
  });

  it("refuses the spring-forward's 2:30 AM on the time field instead of moving it an hour back", () => {
    const parsed = productFormSchema.safeParse(form("2026-03-08", "02:30"));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues).toEqual([expect.objectContaining({ path: ["countdownTime"], message: PRODUCT_MESSAGES.timeSkipped })]);
  });

  it("says nothing about a skipped hour when the time is simply malformed", () => {
    const parsed = productFormSchema.safeParse(form("2026-03-08", "2:30"));
    expect(parsed.error?.issues.map((i) => i.message)).toEqual([PRODUCT_MESSAGES.timeFormat]);
  });
});
