import { describe, expect, it } from "vitest";
import { outcomeOfStatus, retryAfterMs, retryDelayMs } from "./delivery-attempt.ts";

/** What an inbox's answer means, and when to try again (docs/decisions/047-fediverse-delivery.md). */
describe("a delivery's answer", () => {
  it("is sent on 2xx, given up on 404, 410 and other refusals, retried on the rest", () => {
    expect([200, 201, 202, 204].map(outcomeOfStatus)).toEqual(["sent", "sent", "sent", "sent"]);
    expect([404, 410, 400, 403, 413, 422].map(outcomeOfStatus)).toEqual(Array(6).fill("give up"));
    expect([500, 502, 503, 429, 408, 401].map(outcomeOfStatus)).toEqual(Array(6).fill("retry"));
  });

  it("reads Retry-After in seconds or as a date", () => {
    const now = Date.parse("2026-11-26T09:00:00Z");
    expect(retryAfterMs("120", now)).toBe(120_000);
    expect(retryAfterMs("Thu, 26 Nov 2026 09:05:00 GMT", now)).toBe(300_000);
    expect(retryAfterMs("Thu, 26 Nov 2026 08:00:00 GMT", now)).toBe(0);
    expect(retryAfterMs("soon", now)).toBeNull();
    expect(retryAfterMs(undefined, now)).toBeNull();
  });

  it("backs off exponentially, at most retryMaxMs, and waits longer when asked", () => {
    const options = { retryBaseMs: 60_000, retryMaxMs: 6 * 3_600_000 };
    expect([1, 2, 3, 4].map((attempts) => retryDelayMs(attempts, options, null))).toEqual([
      60_000, 120_000, 240_000, 480_000,
    ]);
    expect(retryDelayMs(20, options, null)).toBe(6 * 3_600_000);
    expect(retryDelayMs(1, options, 600_000)).toBe(600_000);
    expect(retryDelayMs(3, options, 1_000)).toBe(240_000);
  });
});
