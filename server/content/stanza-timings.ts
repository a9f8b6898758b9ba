import { stanzaTimingsProblem } from "../../common/stanza-timings.ts";
import { invalid } from "../core/errors.ts";

interface TimedPoem {
  stanzas: string[];
  audioUrl: string | null;
  stanzaTimings: number[] | null;
  readingDuration: number | null;
}

export const NO_READING_TO_TIME = "Add a reading before marking where its stanzas begin";
const NO_DURATION = "Give the reading's duration with its stanza timings";

const sameStanzas = (one: string[], other: string[]) =>
  one.length === other.length && one.every((stanza, index) => stanza === other[index]);

/**
 * The stanza timings a save keeps (docs/product/chapbook.md, The voice read along): the ones it
 * gives, checked against its stanzas and reading (400 naming the field); else the poem's own while
 * its stanzas and reading stay the same. A save that changes either asks for them again, since
 * they belong to the revision they were marked on.
 */
export function timingsToKeep(
  input: {
    stanzas: string[];
    audioUrl: string | null;
    stanzaTimings?: number[] | null;
    readingDuration?: number | null;
  },
  before?: TimedPoem,
): Pick<TimedPoem, "stanzaTimings" | "readingDuration"> {
  const cleared = { stanzaTimings: null, readingDuration: null };
  if (input.stanzaTimings === null) return cleared;
  if (input.stanzaTimings === undefined) {
    const unchanged =
      before?.stanzaTimings &&
      before.audioUrl === input.audioUrl &&
      sameStanzas(before.stanzas, input.stanzas);
    return unchanged
      ? { stanzaTimings: before.stanzaTimings, readingDuration: before.readingDuration }
      : cleared;
  }
  if (!input.audioUrl) throw invalid(NO_READING_TO_TIME, { stanzaTimings: [NO_READING_TO_TIME] });
  const duration = input.readingDuration ?? before?.readingDuration;
  if (!duration) throw invalid(NO_DURATION, { readingDuration: [NO_DURATION] });
  const problem = stanzaTimingsProblem(input.stanzaTimings, input.stanzas.length, duration);
  if (problem) throw invalid(problem, { stanzaTimings: [problem] });
  return { stanzaTimings: input.stanzaTimings, readingDuration: duration };
}
