import { useEffect, useRef, useState } from "react";
import { roundToTenth, stanzaTimingsProblem } from "../../../common/stanza-timings.ts";
import type { StanzaWaveform } from "./stanza-waveform.ts";
import { secondaryButton } from "./ui.tsx";

type WaveformState = "hidden" | "loading" | "shown" | "failed";

/**
 * Marking where each stanza begins in the reading (docs/product/chapbook.md, The voice read
 * along): the poet plays it and presses 'Next stanza' as the voice reaches each one, or drags
 * each stanza's marker along the reading's waveform, then nudges any time by 0.1 s. The waveform
 * (wavesurfer.js) is loaded, and the reading downloaded whole to draw it, only when the poet asks
 * for it (docs/decisions/073-stanza-timings-on-the-waveform.md). The times go with the poem's save.
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
  const waveformBox = useRef<HTMLDivElement>(null);
  const waveform = useRef<StanzaWaveform>(undefined);
  const [waveformState, setWaveformState] = useState<WaveformState>("hidden");
  // The marker callbacks outlive a render: they read the latest times and duration here.
  const latest = useRef({ timings, duration, onChange });
  latest.current = { timings, duration, onChange };
  const isComplete = timings.length === stanzaCount;
  const problem =
    isComplete && duration ? stanzaTimingsProblem(timings, stanzaCount, duration) : undefined;
  const nudge = (index: number, by: number) =>
    onChange(
      timings.map((time, at) => (at === index ? Math.max(0, roundToTenth(time + by)) : time)),
      duration,
    );

  useEffect(() => {
    waveform.current?.showTimings(timings);
  }, [timings]);
  useEffect(() => () => waveform.current?.destroy(), []);

  async function showWaveform() {
    const container = waveformBox.current;
    const media = audio.current;
    if (!container || !media) return;
    setWaveformState("loading");
    try {
      const { createStanzaWaveform } = await import("./stanza-waveform.ts");
      const created = await createStanzaWaveform({
        container,
        media,
        url: audioUrl,
        timings: latest.current.timings,
        onMoved(stanza, time) {
          const { timings: current, duration: length, onChange: change } = latest.current;
          const moved = Math.min(Math.max(0, roundToTenth(time)), length ?? time);
          change(
            current.map((start, at) => (at === stanza ? moved : start)),
            length,
          );
        },
        onReady: () => setWaveformState("shown"),
      });
      // Closed while it was being drawn: nothing is left to show it in.
      if (container.isConnected) {
        waveform.current = created;
        created.showTimings(latest.current.timings);
      } else created.destroy();
    } catch {
      setWaveformState("failed");
    }
  }

  return (
    <fieldset className="min-w-0 space-y-2 rounded border border-stone-200 p-3">
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
        {waveformState === "hidden" && (
          <button type="button" className={secondaryButton} onClick={showWaveform}>
            Show the waveform
          </button>
        )}
      </div>
      <figure
        hidden={waveformState === "hidden" || waveformState === "failed"}
        className="space-y-1"
      >
        <div ref={waveformBox} className="rounded border border-stone-200 bg-stone-50" />
        <figcaption className="text-sm text-stone-700">
          {waveformState === "loading"
            ? "Drawing the waveform…"
            : "The reading's waveform: drag a numbered marker to where its stanza begins; click the waveform to play from there."}
        </figcaption>
      </figure>
      {waveformState === "failed" && (
        <p role="alert" className="text-sm text-red-800">
          The waveform could not be drawn: the reading must be an uploaded recording this browser
          can play.
        </p>
      )}
      <p className="text-sm" aria-live="polite">
        {timings.length} of {stanzaCount} stanzas marked
      </p>
      <ol className="space-y-1">
        {timings.map((time, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: one time per stanza, by position.
          <li key={index} className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
            {/* On a phone the two nudges go under the time together when they do not fit. */}
            <span className="min-w-28">
              Stanza {index + 1}: {time.toFixed(1)} s
            </span>
            <span className="flex gap-2">
              <button
                type="button"
                className={`${secondaryButton} whitespace-nowrap`}
                aria-label={`Stanza ${index + 1} 0.1 s earlier`}
                onClick={() => nudge(index, -0.1)}
              >
                −0.1 s
              </button>
              <button
                type="button"
                className={`${secondaryButton} whitespace-nowrap`}
                aria-label={`Stanza ${index + 1} 0.1 s later`}
                onClick={() => nudge(index, 0.1)}
              >
                +0.1 s
              </button>
            </span>
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
