import { afterAll, describe, expect, it } from "vitest";
import { productFormSchema, PRODUCT_MESSAGES } from "#server/contracts/admin-products";
import {
  addStoreDays,
  formatLaunchTime,
  formatLaunchTimeOrNone,
  formatStoreDate,
  formatStoreDay,
  formatStoreTime,
  formatUtcTime,
  storeDayOf,
  storeDayStart,
  storeToday,
  storeWallClockToUtc,
  utcToStoreWallClock,
} from "#server/contracts/store-time";

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

// 8:30 PM on July 4th in New York (EDT), already July 5th in UTC; and a winter evening (EST).
const SUMMER = "2026-07-05T00:30:00.000Z";
const WINTER = "2026-01-15T23:05:00.000Z";

describe.each(["UTC", "America/Los_Angeles", "Asia/Tokyo"])("the named formats, on a machine in %s", (zone) => {
  it("show each screen's launch line in New York time, EDT in summer and EST in winter", () => {
    process.env.TZ = zone;
    expect(formatLaunchTime(SUMMER)).toBe("Saturday, July 4, 2026 at 8:30 PM EDT");
    expect(formatLaunchTime(WINTER)).toBe("Thursday, January 15, 2026 at 6:05 PM EST");
    // One format for every launch, release and drop time (issue 28); none says "—".
    expect(formatLaunchTimeOrNone(SUMMER)).toBe("Saturday, July 4, 2026 at 8:30 PM EDT");
    expect(formatLaunchTimeOrNone(Date.parse(WINTER))).toBe("Thursday, January 15, 2026 at 6:05 PM EST");
  });

  it("show the day it is in New York, not in UTC", () => {
    process.env.TZ = zone;
    expect(formatStoreDate(SUMMER)).toBe("July 4, 2026");
    expect(formatStoreDay(new Date(SUMMER))).toBe("Jul 4, 2026");
    expect(formatUtcTime(new Date(SUMMER))).toBe("Jul 5, 00:30 UTC");
  });
});

describe("the countdown's Intl-built launch line", () => {
  it("reads the same as the date-fns pattern it stands in for, across both DST changes", () => {
    for (const iso of ["2026-03-08T06:59:00.000Z", "2026-03-08T07:00:00.000Z", "2026-11-01T05:30:00.000Z", "2026-11-01T06:30:00.000Z"]) {
      expect(formatLaunchTime(iso)).toBe(formatStoreTime(iso, "EEEE, MMMM d, yyyy 'at' h:mm a zzz"));
    }
    expect(formatLaunchTime("2026-03-08T07:00:00.000Z")).toBe("Sunday, March 8, 2026 at 3:00 AM EDT");
    expect(formatLaunchTime("2026-11-01T06:30:00.000Z")).toBe("Sunday, November 1, 2026 at 1:30 AM EST");
  });

  it("says nothing for an unreadable date", () => {
    expect(formatLaunchTime("soon")).toBe("");
  });
});

describe("formatStoreTime", () => {
  it("shows a dash for no instant and unreadable text as it is", () => {
    expect(formatStoreTime(null, "MMM d")).toBe("—");
    expect(formatStoreTime("", "MMM d")).toBe("—");
    expect(formatLaunchTimeOrNone(null)).toBe("—");
    expect(formatStoreTime("not a date", "MMM d")).toBe("not a date");
  });
});

describe.each(["UTC", "America/Los_Angeles", "America/New_York", "Asia/Tokyo"])("the store's today, on a machine in %s", (zone) => {
  it("turns at midnight in New York, EST or EDT", () => {
    process.env.TZ = zone;
    // Winter: midnight in New York is 05:00 UTC.
    expect(storeToday(new Date("2026-01-16T04:59:59.999Z"))).toBe("2026-01-15");
    expect(storeToday(new Date("2026-01-16T05:00:00.000Z"))).toBe("2026-01-16");
    // Summer: 04:00 UTC.
    expect(storeToday(new Date("2026-07-05T03:59:59.999Z"))).toBe("2026-07-04");
    expect(storeToday(new Date("2026-07-05T04:00:00.000Z"))).toBe("2026-07-05");
  });

  it("keeps the day through both DST changes, which happen at 2 AM, not midnight", () => {
    process.env.TZ = zone;
    expect(storeToday(new Date("2026-03-08T06:59:00.000Z"))).toBe("2026-03-08"); // 1:59 AM EST
    expect(storeToday(new Date("2026-03-08T07:00:00.000Z"))).toBe("2026-03-08"); // 3:00 AM EDT
    expect(storeToday(new Date("2026-11-01T05:30:00.000Z"))).toBe("2026-11-01"); // first 1:30 AM (EDT)
    expect(storeToday(new Date("2026-11-01T06:30:00.000Z"))).toBe("2026-11-01"); // second 1:30 AM (EST)
    expect(storeToday(new Date("2026-11-02T04:59:00.000Z"))).toBe("2026-11-01"); // 11:59 PM EST
  });

  it("is another zone's day when asked for one", () => {
    process.env.TZ = zone;
    const now = new Date("2026-07-04T23:30:00.000Z");
    expect(storeToday(now)).toBe("2026-07-04");
    expect(storeToday(now, "Asia/Tokyo")).toBe("2026-07-05");
    expect(storeToday(now, "UTC")).toBe("2026-07-04");
    expect(storeDayOf(now.toISOString(), "Pacific/Honolulu")).toBe("2026-07-04");
  });

  it("starts each day at New York's midnight, so the DST days are 23 and 25 hours long", () => {
    process.env.TZ = zone;
    expect(storeDayStart("2026-07-04").toISOString()).toBe("2026-07-04T04:00:00.000Z");
    expect(storeDayStart("2026-01-15").toISOString()).toBe("2026-01-15T05:00:00.000Z");
    const hours = (day: string) => (storeDayStart(addStoreDays(day, 1)).getTime() - storeDayStart(day).getTime()) / 3_600_000;
    expect(hours("2026-03-08")).toBe(23);
    expect(hours("2026-11-01")).toBe(25);
    expect(hours("2026-07-04")).toBe(24);
  });
});

describe("addStoreDays", () => {
  it("counts calendar days across months, years, leap days and DST changes", () => {
    expect(addStoreDays("2026-03-07", 1)).toBe("2026-03-08");
    expect(addStoreDays("2026-03-08", 1)).toBe("2026-03-09");
    expect(addStoreDays("2026-10-31", 2)).toBe("2026-11-02");
    expect(addStoreDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addStoreDays("2028-03-01", -1)).toBe("2028-02-29");
    expect(addStoreDays("2026-07-04", -29)).toBe("2026-06-05");
  });
});
