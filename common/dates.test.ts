import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addDays,
  dateToDay,
  dayInZone,
  dayToDate,
  formatDate,
  formatLongDay,
  instantInZone,
  nextMidnightInZone,
  nextMonday,
} from "./dates.ts";

/** Instants from year 1900 to 2200, where en-US's Gregorian calendar is the one written out. */
const instants = fc.date({
  min: new Date("1900-01-01"),
  max: new Date("2200-12-31"),
  noInvalidDate: true,
});

describe("calendar days", () => {
  it("reads today in the site's time zone, not the server's", () => {
    const instant = new Date("2026-03-01T02:30:00Z");
    expect(dayInZone("UTC", instant)).toBe("2026-03-01");
    expect(dayInZone("America/Los_Angeles", instant)).toBe("2026-02-28");
    expect(dayInZone("Pacific/Auckland", new Date("2026-02-28T12:00:00Z"))).toBe("2026-03-01");
  });

  it("stores a day as midnight UTC and reads it back", () => {
    expect(dayToDate("2026-11-22").toISOString()).toBe("2026-11-22T00:00:00.000Z");
    expect(dateToDay(dayToDate("2026-11-22"))).toBe("2026-11-22");
  });

  it("adds days across month and year ends", () => {
    expect(addDays("2026-12-30", 3)).toBe("2027-01-02");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });

  it("formats the long en-US date of the stored day whatever the reader's zone", () => {
    expect(formatLongDay(dayToDate("2026-11-22"))).toBe("Sunday, November 22, 2026");
    expect(formatLongDay("2027-01-01T00:00:00.000Z")).toBe("Friday, January 1, 2027");
  });

  it("writes the same long dates as Intl's en-US forms", () => {
    const longDay = new Intl.DateTimeFormat("en-US", {
      timeZone: "UTC",
      weekday: "long",
      year: "numeric",
      month: "long",
      day: "numeric",
    });
    const date = { year: "numeric", month: "long", day: "numeric" } as const;
    const localDate = new Intl.DateTimeFormat("en-US", date);
    const utcDate = new Intl.DateTimeFormat("en-US", { ...date, timeZone: "UTC" });
    fc.assert(
      fc.property(instants, (instant) => {
        expect(formatLongDay(instant)).toBe(longDay.format(instant));
        expect(formatDate(instant, "local")).toBe(localDate.format(instant));
        expect(formatDate(instant, "utc")).toBe(utcDate.format(instant));
      }),
    );
  });

  it("finds the next Monday, a full week ahead on a Monday (the ember form's quick button)", () => {
    expect(nextMonday("2026-11-22")).toBe("2026-11-23");
    expect(nextMonday("2026-11-23")).toBe("2026-11-30");
    expect(nextMonday("2026-11-24")).toBe("2026-11-30");
    expect(nextMonday("2026-12-28")).toBe("2027-01-04");
  });
});

describe("times in the site's time zone", () => {
  it.each([
    ["2026-11-30", "09:00", "UTC", "2026-11-30T09:00:00.000Z"],
    ["2026-11-30", "09:00", "America/New_York", "2026-11-30T14:00:00.000Z"],
    ["2026-07-01", "09:00", "America/New_York", "2026-07-01T13:00:00.000Z"],
    ["2026-11-30", "00:00", "Pacific/Kiritimati", "2026-11-29T10:00:00.000Z"],
    // 02:30 does not happen on 8 March 2026 in New York: it comes out as 03:30 EDT.
    ["2026-03-08", "02:30", "America/New_York", "2026-03-08T07:30:00.000Z"],
    // 01:30 happens twice on 1 November 2026 in New York: the first, in EDT.
    ["2026-11-01", "01:30", "America/New_York", "2026-11-01T05:30:00.000Z"],
  ])("%s %s in %s is %s", (day, time, zone, expected) => {
    expect(instantInZone(day, time, zone).toISOString()).toBe(expected);
  });

  it("reads back as the same day and time wherever the reading exists", () => {
    fc.assert(
      fc.property(
        // Since 1970: earlier local mean times had offsets in seconds, no site's publication time.
        fc.date({ min: new Date("1970-01-01"), max: new Date("2200-12-31"), noInvalidDate: true }),
        fc.constantFrom(
          "UTC",
          "Europe/London",
          "America/New_York",
          "Asia/Kolkata",
          "Pacific/Auckland",
        ),
        (instant, zone) => {
          const wholeMinute = new Date(Math.floor(instant.getTime() / 60_000) * 60_000);
          const day = dayInZone(zone, wholeMinute);
          const time = new Intl.DateTimeFormat("en-GB", {
            timeZone: zone,
            hour: "2-digit",
            minute: "2-digit",
            hourCycle: "h23",
          }).format(wholeMinute);
          const back = instantInZone(day, time, zone);
          expect(dayInZone(zone, back)).toBe(day);
          expect(Math.abs(back.getTime() - wholeMinute.getTime()) % 3_600_000).toBe(0);
        },
      ),
    );
  });

  it("finds the next midnight in the zone", () => {
    const now = new Date("2026-11-24T20:30:00.000Z");
    expect(nextMidnightInZone("UTC", now).toISOString()).toBe("2026-11-25T00:00:00.000Z");
    expect(nextMidnightInZone("America/New_York", now).toISOString()).toBe(
      "2026-11-25T05:00:00.000Z",
    );
    expect(nextMidnightInZone("Asia/Tokyo", now).toISOString()).toBe("2026-11-25T15:00:00.000Z");
  });
});
