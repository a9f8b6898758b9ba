/**
 * Stanza timings (docs/product/chapbook.md, The voice read along): where each stanza begins in
 * the poem's reading, in seconds. One rule, used by the poem editor as the poet marks them and
 * by the server before it keeps them.
 */

/** Why these timings cannot be kept for these stanzas and this reading, or undefined. */
export function stanzaTimingsProblem(
  timings: number[],
  stanzaCount: number,
  duration: number,
): string | undefined {
  if (timings.length !== stanzaCount) {
    return `Mark one time per stanza: ${stanzaCount} stanza${stanzaCount === 1 ? "" : "s"}, ${timings.length} time${timings.length === 1 ? "" : "s"}`;
  }
  if (timings.some((time) => !Number.isFinite(time) || time < 0)) {
    return "Each time must be zero or more seconds";
  }
  if (timings.some((time, index) => index > 0 && time <= (timings[index - 1] ?? 0))) {
    return "Each stanza must begin after the one before it";
  }
  if (timings.some((time) => time >= duration)) {
    return "Each stanza must begin before the reading ends";
  }
  return undefined;
}

/** Times kept to a tenth of a second: what the editor's nudges move by. */
export const roundToTenth = (seconds: number) => Math.round(seconds * 10) / 10;

/** The stanza being read at `time`: the last one whose timing has passed (0 before the first). */
export function stanzaAtTime(timings: number[], time: number): number {
  let current = 0;
  timings.forEach((start, index) => {
    if (time >= start) current = index;
  });
  return current;
}

/** "00:01:02.300": a WebVTT timestamp. */
export function vttTimestamp(seconds: number): string {
  const millis = Math.round(seconds * 1000);
  const hours = Math.floor(millis / 3_600_000);
  const minutes = Math.floor((millis % 3_600_000) / 60_000);
  const secs = Math.floor((millis % 60_000) / 1000);
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  return `${pad(hours)}:${pad(minutes)}:${pad(secs)}.${pad(millis % 1000, 3)}`;
}

/** A stanza's part of the reading: where it starts and ends, and the same file's address for it. */
export interface ReadingExcerpt {
  start: number;
  end: number;
  /** The reading's own address with a media fragment (`#t=start,end`): a range, never a copy. */
  url: string;
}

/** Seconds as a media fragment writes them: at most milliseconds, no trailing zeros. */
const fragmentSeconds = (seconds: number) => String(Math.round(seconds * 1000) / 1000);

/**
 * Stanza `index`'s excerpt of a timed reading (docs/decisions/073-stanza-timings-on-the-waveform.md):
 * from its timing to the next stanza's, or to the reading's end; none for a poem without timings.
 */
export function readingExcerpt(
  poem: { audioUrl: string | null; stanzaTimings: number[] | null; readingDuration: number | null },
  index: number,
): ReadingExcerpt | null {
  const { audioUrl, stanzaTimings, readingDuration } = poem;
  const start = stanzaTimings?.[index];
  if (!audioUrl || start === undefined || readingDuration === null) return null;
  const end = stanzaTimings?.[index + 1] ?? readingDuration;
  const address = audioUrl.split("#")[0] ?? audioUrl;
  return {
    start,
    end,
    url: `${address}#t=${fragmentSeconds(start)},${fragmentSeconds(end)}`,
  };
}
