import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addDays,
  dateToDay,
  dayInZone,
  dayToDate,
  formatDate,
  formatLongDay,
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
