/**
 * Calendar days. An ember belongs to a calendar day, stored as midnight UTC of that day; "today"
 * is the day in SITE_TIMEZONE (docs/product/README.md, Conventions that hold everywhere).
 */

/** 'YYYY-MM-DD' of the instant `now` as seen in `timeZone`. */
export function dayInZone(timeZone: string, now: Date = new Date()): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(now);
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock reading in `timeZone` at `instant`, as if that reading were UTC (ms). */
function wallClockMs(instant: number, timeZone: string): number {
  let format = wallClocks.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    wallClocks.set(timeZone, format);
  }
  const parts = format.formatToParts(new Date(instant));
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((candidate) => candidate.type === type)?.value);
  return Date.UTC(
    part("year"),
    part("month") - 1,
    part("day"),
    part("hour"),
    part("minute"),
    part("second"),
  );
}

/**
 * The instant at which clocks in `timeZone` read `time` ('HH:MM') on `day` ('YYYY-MM-DD'): a
 * publication time or a digest's send time, which the poet gives in the site's time zone. A time
 * a daylight-saving change skips comes out an hour later; one it repeats, at its first reading.
 */
export function instantInZone(day: string, time: string, timeZone: string): Date {
  const wall = Date.parse(`${day}T${time}:00.000Z`);
  const offsetAt = (instant: number) => wallClockMs(instant, timeZone) - instant;
  // Two corrections settle it: the offset at the guess, then the offset at the answer.
  let instant = wall - offsetAt(wall);
  instant = wall - offsetAt(instant);
  if (wallClockMs(instant, timeZone) !== wall) {
    // A skipped reading: taken with the offset in force before the change, the smaller one.
    instant = wall - Math.min(offsetAt(instant - DAY_MS), offsetAt(instant + DAY_MS));
  } else if (wallClockMs(instant - HOUR_MS, timeZone) === wall) {
    instant -= HOUR_MS;
  }
  return new Date(instant);
}

/** 'HH:MM' of the instant `now` on the clocks of `timeZone`. */
export function timeInZone(timeZone: string, now: Date = new Date()): string {
  return new Date(wallClockMs(now.getTime(), timeZone)).toISOString().slice(11, 16);
}

/** The instant the day after `now` begins in `timeZone`: when "today" next changes. */
export function nextMidnightInZone(timeZone: string, now: Date = new Date()): Date {
  return instantInZone(addDays(dayInZone(timeZone, now), 1), "00:00", timeZone);
}

/** Midnight UTC of a 'YYYY-MM-DD' day: how an ember's date is stored. */
export function dayToDate(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

/** The 'YYYY-MM-DD' day of a stored ember date. */
export function dateToDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  const date = dayToDate(day);
  date.setUTCDate(date.getUTCDate() + days);
  return dateToDay(date);
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

// The reader's long dates are written out here rather than with Intl.DateTimeFormat: a page's
// first DateTimeFormat loads the locale's data, 60–115 ms on a phone's CPU (Chromium throttled
// four times), one long task in the middle of hydration. The forms are en-US's (tests compare).

/** 'Sunday, November 22, 2026': the long en-US form of a stored day (docs/product/reading.md). */
export function formatLongDay(date: Date | string): string {
  return `${WEEKDAYS[new Date(date).getUTCDay()]}, ${formatDate(date, "utc")}`;
}

/** 'November 22, 2026': the en-US date of an instant, in this runtime's time zone or in UTC. */
export function formatDate(instant: Date | string | number, zone: "local" | "utc"): string {
  const date = new Date(instant);
  return zone === "utc"
    ? `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`
    : `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
}

/** 'November 30' for '2026-11-30': the digest's default subject names its week so. */
export function formatMonthDay(day: string): string {
  const date = dayToDate(day);
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}`;
}

/** Day of the week of a stored day, 0 for Sunday to 6 for Saturday. */
export function weekdayOf(day: string): number {
  return dayToDate(day).getUTCDay();
}

/**
 * The next Monday after `day`; a full week ahead when `day` is a Monday
 * (docs/product/admin.md, Embers).
 */
export function nextMonday(day: string): string {
  return addDays(day, (8 - weekdayOf(day)) % 7 || 7);
}
