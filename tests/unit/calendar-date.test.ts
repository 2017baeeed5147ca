import { afterAll, describe, expect, it } from "vitest";
import { dateFromYmd, formatYmdShort, ymdFromDate } from "#app/components/admin/settings/calendar-date";

// The picker's days must not move with the browser's time zone: run every case west of Greenwich
// (where `new Date("YYYY-MM-DD")` is the day before), east of it, and far east.
const ZONES = ["America/Los_Angeles", "America/New_York", "UTC", "Europe/Paris", "Asia/Tokyo", "Pacific/Kiritimati"];
const originalTz = process.env.TZ;
afterAll(() => {
  process.env.TZ = originalTz;
});

describe.each(ZONES)("calendar days in %s", (zone) => {
  it("makes the local midnight of the day from its Y/M/D parts", () => {
    process.env.TZ = zone;
    const date = dateFromYmd("2026-07-04");
    expect(date).toBeInstanceOf(Date);
    expect([date?.getFullYear(), date?.getMonth(), date?.getDate(), date?.getHours(), date?.getMinutes()]).toEqual([2026, 6, 4, 0, 0]);
  });

  it.each(["2026-07-04", "2026-01-01", "2026-12-31", "2028-02-29", "2026-03-08", "2026-11-01"])("round-trips %s", (ymd) => {
    process.env.TZ = zone;
    const date = dateFromYmd(ymd);
    expect(date).toBeDefined();
    expect(ymdFromDate(date as Date)).toBe(ymd);
  });

  it("formats the button text from the same local day", () => {
    process.env.TZ = zone;
    expect(formatYmdShort("2026-07-04")).toBe("Sat, Jul 4, 2026");
    expect(formatYmdShort("2026-11-22")).toBe("Sun, Nov 22, 2026");
  });
});

describe("dateFromYmd", () => {
  it.each(["", "2026-7-4", "2026-07-04T00:00", "07/04/2026", "2026-02-30", "2026-13-01", "2026-00-10", "2027-02-29", "garbage"])(
    "answers undefined for %j",
    (value) => {
      expect(dateFromYmd(value)).toBeUndefined();
    },
  );

  it("answers undefined for no value", () => {
    expect(dateFromYmd(undefined)).toBeUndefined();
    expect(dateFromYmd(null)).toBeUndefined();
    expect(formatYmdShort(undefined)).toBeNull();
  });

  it("keeps years below 100 as written", () => {
    expect(ymdFromDate(dateFromYmd("0099-05-06") as Date)).toBe("0099-05-06");
  });
});

describe("ymdFromDate", () => {
  it("takes the local calendar day, not the UTC one", () => {
    process.env.TZ = "America/Los_Angeles";
    // 23:30 on July 4th in Los Angeles is already July 5th in UTC.
    expect(ymdFromDate(new Date(2026, 6, 4, 23, 30))).toBe("2026-07-04");
    process.env.TZ = "Asia/Tokyo";
    // 00:30 on July 4th in Tokyo is still July 3rd in UTC.
    expect(ymdFromDate(new Date(2026, 6, 4, 0, 30))).toBe("2026-07-04");
  });
});
