import type { Config } from "../config.ts";

const HOUR_MS = 3_600_000;

/**
 * The counting's day and hour on the services' clock: a day in the site's time zone, and an hour
 * of the clock, by which a reader's pace is held (docs/product/limits.md).
 */
export function createDayClock(config: Config, now: () => Date) {
  const dayFormat = new Intl.DateTimeFormat("en-CA", {
    timeZone: config.siteTimezone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  });
  // Day boundaries fall on whole minutes in every time zone: one formatting a minute.
  let lastMinute = Number.NaN;
  let lastDay = "";
  let hour = 0;
  /** Today in the site's time zone, 'YYYY-MM-DD', on the services' clock. */
  function today(): string {
    const ms = now().getTime();
    const minute = Math.floor(ms / 60_000);
    if (minute !== lastMinute) {
      lastMinute = minute;
      lastDay = dayFormat.format(new Date(ms));
      hour = Math.floor(ms / HOUR_MS);
    }
    return lastDay;
  }

  return {
    today,
    /** The hour of the last `today()`, in hours since the epoch. */
    get hour() {
      return hour;
    },
  };
}

export type DayClock = ReturnType<typeof createDayClock>;
