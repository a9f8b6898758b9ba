import { describe, expect, it } from "vitest";
import {
  readingExcerpt,
  stanzaAtTime,
  stanzaTimingsProblem,
  vttTimestamp,
} from "./stanza-timings.ts";

describe("stanza timings", () => {
  it("accepts one ascending time per stanza inside the reading", () => {
    expect(stanzaTimingsProblem([0, 4.2, 9.9], 3, 12)).toBeUndefined();
  });

  it("names what is wrong", () => {
    expect(stanzaTimingsProblem([0, 4], 3, 12)).toBe(
      "Mark one time per stanza: 3 stanzas, 2 times",
    );
    expect(stanzaTimingsProblem([0, 4, 4], 3, 12)).toBe(
      "Each stanza must begin after the one before it",
    );
    expect(stanzaTimingsProblem([0, 4, 12], 3, 12)).toBe(
      "Each stanza must begin before the reading ends",
    );
    expect(stanzaTimingsProblem([-1, 4, 8], 3, 12)).toBe("Each time must be zero or more seconds");
  });

  it("finds the stanza being read", () => {
    expect(stanzaAtTime([0.5, 4, 9], 0)).toBe(0);
    expect(stanzaAtTime([0.5, 4, 9], 4)).toBe(1);
    expect(stanzaAtTime([0.5, 4, 9], 30)).toBe(2);
  });

  it("writes WebVTT timestamps", () => {
    expect(vttTimestamp(0)).toBe("00:00:00.000");
    expect(vttTimestamp(62.3)).toBe("00:01:02.300");
    expect(vttTimestamp(3723.05)).toBe("01:02:03.050");
  });

  it("gives a stanza's excerpt as a media fragment of the same reading", () => {
    const poem = {
      audioUrl: "/objects/audio/reading-1",
      stanzaTimings: [0, 4.2, 9.9],
      readingDuration: 12.345,
    };
    expect(readingExcerpt(poem, 0)).toEqual({
      start: 0,
      end: 4.2,
      url: "/objects/audio/reading-1#t=0,4.2",
    });
    // The last stanza runs to the reading's end.
    expect(readingExcerpt(poem, 2)?.url).toBe("/objects/audio/reading-1#t=9.9,12.345");
    expect(readingExcerpt({ ...poem, audioUrl: "https://a.example/r.mp3#t=1" }, 1)?.url).toBe(
      "https://a.example/r.mp3#t=4.2,9.9",
    );
    expect(readingExcerpt({ ...poem, stanzaTimings: null }, 0)).toBeNull();
    expect(readingExcerpt({ ...poem, audioUrl: null }, 0)).toBeNull();
    expect(readingExcerpt(poem, 3)).toBeNull();
  });
});
