import { useEffect, useRef, useState } from "react";
import { Headphones } from "./icons.ts";

const NO_TIMINGS: number[] = [];

/** A page opened at a stanza (#s-2), with a timed reading, offers to listen from there. */
const OPENED_AT_STANZA = /^#s-([1-9]\d*)$/;

/**
 * The poet reading the poem (decision 018). 'Listen' opens the browser's own player in its place,
 * in a box of the player's height, so nothing on the page moves; it is a <details>, so it opens
 * before the page's scripts have arrived too. The player is not laid out before that press
 * because Chromium's controls shift inside themselves when first laid out (their time display
 * appears), which would be a layout shift at load. `preload="none"` fetches nothing until the
 * reader presses play, and it never starts by itself. A recording that cannot be played says so
 * beneath, in a line kept free for that.
 */
export function PoemAudio({
  src,
  title,
  stanzaTimings,
  captionsUrl,
}: {
  src: string;
  title: string;
  /** Where each stanza begins: the viewer then follows the voice. */
  stanzaTimings?: number[] | null;
  /** The reading's WebVTT captions, one cue per stanza. */
  captionsUrl?: string;
}) {
  const [cannotPlay, setCannotPlay] = useState(false);
  const [fromStanza, setFromStanza] = useState<number>();
  const audio = useRef<HTMLAudioElement>(null);
  const details = useRef<HTMLDetailsElement>(null);
  const timings = stanzaTimings ?? NO_TIMINGS;
  const stopFollowing = useRef<() => void>(undefined);
  useEffect(() => () => stopFollowing.current?.(), []);
  useEffect(() => {
    // An error before hydration had no listener yet: the element still holds it.
    if (audio.current?.error) setCannotPlay(true);
    const opened = OPENED_AT_STANZA.exec(window.location.hash);
    if (opened && timings[Number(opened[1])] !== undefined) setFromStanza(Number(opened[1]));
  }, [timings]);

  function listenFrom(stanza: number) {
    const element = audio.current;
    if (!element || !details.current) return;
    details.current.open = true;
    element.currentTime = timings[stanza] ?? 0;
    void element.play();
    setFromStanza(undefined);
  }

  return (
    <div className="mx-auto flex w-full max-w-md flex-col items-center gap-1">
      <details
        ref={details}
        className="group h-14 w-full"
        onToggle={(event) => {
          // The pressed summary is hidden once open: keyboard focus moves on to the player.
          if (event.currentTarget.open) audio.current?.focus();
        }}
      >
        <summary className="mx-auto flex h-14 w-fit cursor-pointer list-none items-center gap-2 rounded-full border border-ember-700 px-6 font-medium text-ember-900 hover:bg-ember-50 group-open:hidden [&::-webkit-details-marker]:hidden">
          <Headphones aria-hidden="true" className="h-5 w-5" /> Listen
        </summary>
        {/* biome-ignore lint/a11y/useMediaCaption: the poet reading the poem printed beside it; the stanzas are its transcript, and a timed reading carries them as its captions. */}
        <audio
          ref={audio}
          src={src}
          controls
          preload="none"
          aria-label={`Listen to ${title}`}
          onError={() => setCannotPlay(true)}
          onPlay={(event) => {
            const element = event.currentTarget;
            // The viewer follows a timed reading from its first play on (app/lib/read-along.ts).
            if (timings.length === 0 || stopFollowing.current) return;
            stopFollowing.current = () => {};
            void import("../lib/read-along.ts").then(({ followViewer }) => {
              stopFollowing.current = followViewer(element, timings);
            });
          }}
          className="h-14 w-full"
        >
          {captionsUrl && timings.length > 0 && (
            <track kind="captions" src={captionsUrl} srcLang="en" label="Stanzas" default />
          )}
        </audio>
      </details>
      {fromStanza !== undefined && (
        <button
          type="button"
          className="text-sm text-ember-800 underline underline-offset-4"
          onClick={() => listenFrom(fromStanza)}
        >
          Listen from here
        </button>
      )}
      <p role="status" className="min-h-5 text-sm text-stone-700">
        {cannotPlay ? "This recording cannot be played right now." : ""}
      </p>
    </div>
  );
}
