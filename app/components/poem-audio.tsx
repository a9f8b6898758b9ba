import { Headphones } from "lucide-react";
import { useEffect, useRef, useState } from "react";

/**
 * The poet reading the poem (decision 018). 'Listen' opens the browser's own player in its place,
 * in a box of the player's height, so nothing on the page moves; it is a <details>, so it opens
 * before the page's scripts have arrived too. The player is not laid out before that press
 * because Chromium's controls shift inside themselves when first laid out (their time display
 * appears), which would be a layout shift at load. `preload="none"` fetches nothing until the
 * reader presses play, and it never starts by itself. A recording that cannot be played says so
 * beneath, in a line kept free for that.
 */
export function PoemAudio({ src, title }: { src: string; title: string }) {
  const [cannotPlay, setCannotPlay] = useState(false);
  const audio = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    // An error before hydration had no listener yet: the element still holds it.
    if (audio.current?.error) setCannotPlay(true);
  }, []);

  return (
    <div className="mx-auto flex w-full max-w-md flex-col items-center gap-1">
      <details
        className="group h-14 w-full"
        onToggle={(event) => {
          // The pressed summary is hidden once open: keyboard focus moves on to the player.
          if (event.currentTarget.open) audio.current?.focus();
        }}
      >
        <summary className="mx-auto flex h-14 w-fit cursor-pointer list-none items-center gap-2 rounded-full border border-ember-700 px-6 font-medium text-ember-900 hover:bg-ember-50 group-open:hidden [&::-webkit-details-marker]:hidden">
          <Headphones aria-hidden="true" className="h-5 w-5" /> Listen
        </summary>
        {/* biome-ignore lint/a11y/useMediaCaption: the poet reading the poem printed beside it; the stanzas are its transcript. */}
        <audio
          ref={audio}
          src={src}
          controls
          preload="none"
          aria-label={`Listen to ${title}`}
          onError={() => setCannotPlay(true)}
          className="h-14 w-full"
        />
      </details>
      <p role="status" className="min-h-5 text-sm text-stone-700">
        {cannotPlay ? "This recording cannot be played right now." : ""}
      </p>
    </div>
  );
}
