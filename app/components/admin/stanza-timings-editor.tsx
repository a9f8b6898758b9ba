import { useRef } from "react";
import { roundToTenth, stanzaTimingsProblem } from "../../../common/stanza-timings.ts";
import { secondaryButton } from "./ui.tsx";

/**
 * Marking where each stanza begins in the reading (docs/product/chapbook.md, The voice read
 * along): the poet plays it and presses 'Next stanza' as the voice reaches each one, then nudges
 * any time by 0.1 s. The times go with the poem's save.
 */
export function StanzaTimingsEditor({
  audioUrl,
  stanzaCount,
  timings,
  duration,
  errors,
  onChange,
}: {
  audioUrl: string;
  stanzaCount: number;
  timings: number[];
  duration: number | undefined;
  errors?: string[];
  onChange: (timings: number[], duration: number | undefined) => void;
}) {
  const audio = useRef<HTMLAudioElement>(null);
  const isComplete = timings.length === stanzaCount;
  const problem =
    isComplete && duration ? stanzaTimingsProblem(timings, stanzaCount, duration) : undefined;
  const nudge = (index: number, by: number) =>
    onChange(
      timings.map((time, at) => (at === index ? Math.max(0, roundToTenth(time + by)) : time)),
      duration,
    );

  return (
    <fieldset className="space-y-2 rounded border border-stone-200 p-3">
      <legend className="font-medium">Stanza timings</legend>
      <p className="text-sm text-stone-700">
        Play the reading and press 'Next stanza' as the voice reaches each stanza.
      </p>
      {/* biome-ignore lint/a11y/useMediaCaption: the poet's own reading, being timed against the stanzas above. */}
      <audio
        ref={audio}
        src={audioUrl}
        controls
        preload="metadata"
        aria-label="The reading to time"
        className="w-full"
        onLoadedMetadata={(event) => {
          const length = event.currentTarget.duration;
          if (Number.isFinite(length)) onChange(timings, Math.round(length * 1000) / 1000);
        }}
      />
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={secondaryButton}
          disabled={isComplete}
          onClick={() =>
            onChange([...timings, roundToTenth(audio.current?.currentTime ?? 0)], duration)
          }
        >
          Next stanza
        </button>
        <button type="button" className={secondaryButton} onClick={() => onChange([], duration)}>
          Start over
        </button>
      </div>
      <p className="text-sm" aria-live="polite">
        {timings.length} of {stanzaCount} stanzas marked
      </p>
      <ol className="space-y-1">
        {timings.map((time, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: one time per stanza, by position.
          <li key={index} className="flex items-center gap-2 text-sm">
            <span className="w-32">
              Stanza {index + 1}: {time.toFixed(1)} s
            </span>
            <button
              type="button"
              className={secondaryButton}
              aria-label={`Stanza ${index + 1} 0.1 s earlier`}
              onClick={() => nudge(index, -0.1)}
            >
              −0.1 s
            </button>
            <button
              type="button"
              className={secondaryButton}
              aria-label={`Stanza ${index + 1} 0.1 s later`}
              onClick={() => nudge(index, 0.1)}
            >
              +0.1 s
            </button>
          </li>
        ))}
      </ol>
      {(problem || errors?.[0]) && (
        <p role="alert" className="text-sm text-red-800">
          {problem ?? errors?.[0]}
        </p>
      )}
    </fieldset>
  );
}
