/**
 * Calendar days. An ember belongs to a calendar day, stored as midnight UTC of that day; "today"
 * is the day in SITE_TIMEZONE (DESIGN.md, Decisions).
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

/** 'Sunday, November 22, 2026': the long en-US form of a stored day (SPEC.md §2, Daily Ember). */
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

/** Day of the week of a stored day, 0 for Sunday to 6 for Saturday. */
export function weekdayOf(day: string): number {
  return dayToDate(day).getUTCDay();
}

/** The next Monday after `day`; a full week ahead when `day` is a Monday (SPEC.md §2, Ember form). */
export function nextMonday(day: string): string {
  return addDays(day, (8 - weekdayOf(day)) % 7 || 7);
}
