import { afterEach, describe, expect, it } from "vitest";
import { parseDate } from "./text.ts";

/**
 * The platforms' dates are UTC unless they say otherwise, on a server in any zone
 * (docs/product/import.md). Node reads TZ afresh when it changes, so each case runs in a zone far
 * from UTC as well as in UTC.
 */
const serverZone = process.env.TZ;
afterEach(() => {
  if (serverZone === undefined) delete process.env.TZ;
  else process.env.TZ = serverZone;
});

describe.each(["UTC", "America/New_York", "Asia/Kolkata"])(
  "parseDate on a server in %s",
  (zone) => {
    const read = (value: unknown, assumeUtc = true) => {
      process.env.TZ = zone;
      return parseDate(value, assumeUtc)?.toISOString() ?? null;
    };

    it("reads ISO strings, WordPress's and Ghost's own forms and Ghost 0.x's milliseconds as UTC", () => {
      expect(read("2024-03-07T19:08:42.354Z")).toBe("2024-03-07T19:08:42.354Z");
      expect(read("2024-03-07 19:08:42")).toBe("2024-03-07T19:08:42.000Z");
      expect(read("2024-03-07T19:08")).toBe("2024-03-07T19:08:00.000Z");
      expect(read("2024-03-07")).toBe("2024-03-07T00:00:00.000Z");
      expect(read(1388318310783)).toBe("2013-12-29T11:58:30.783Z");
      expect(read("1388318310783")).toBe("2013-12-29T11:58:30.783Z");
    });

    it("keeps a zone the date names, Ghost 0.x's three-digit '+000' too", () => {
      expect(read("25 Nov 2016 04:20:00 +000")).toBe("2016-11-25T04:20:00.000Z");
      expect(read("Fri, 18 Oct 2016 23:58:44 +0100")).toBe("2016-10-18T22:58:44.000Z");
      expect(read("2016-10-18T23:58:44+05:30")).toBe("2016-10-18T18:28:44.000Z");
      expect(read("Fri Nov 25 2016 04:20:00 GMT+0100 (Central European Standard Time)")).toBe(
        "2016-11-25T03:20:00.000Z",
      );
      expect(read("25 Nov 2016 04:20:00 EST")).toBe("2016-11-25T09:20:00.000Z");
    });

    it("reads any other form without a zone as UTC, not as the server's time", () => {
      expect(read("25 Nov 2016 04:20:00")).toBe("2016-11-25T04:20:00.000Z");
      expect(read("November 25, 2016")).toBe("2016-11-25T00:00:00.000Z");
      expect(read("2016/11/25 23:30")).toBe("2016-11-25T23:30:00.000Z");
    });

    it("has no date for WordPress's 0000-00-00, an empty value or words", () => {
      expect(read("0000-00-00 00:00:00")).toBeNull();
      expect(read("")).toBeNull();
      expect(read("spring of that year")).toBeNull();
      expect(read(0)).toBeNull();
    });
  },
);
