import { Headphones } from "lucide-react";
import { useEffect, useRef, useState } from "react";

/**
 * The poet's reading of a poem (issue 21): the browser's own player, in the server's HTML so its
 * space is there from the first paint. `preload="none"` fetches nothing until the reader presses
 * play, and it never starts by itself. A recording that cannot be played says so beneath it, in a
 * line kept free for that.
 */
export function PoemAudio({ src, title }: { src: string; title: string }) {
  const [cannotPlay, setCannotPlay] = useState(false);
  const audio = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    // An error before hydration had no listener yet: the element still holds it.
    if (audio.current?.error) setCannotPlay(true);
  }, []);

  return (
    <section
      aria-labelledby="listen-heading"
      className="mx-auto flex w-full max-w-md flex-col items-center gap-2"
    >
      <h2
        id="listen-heading"
        className="flex items-center gap-2 text-sm font-medium uppercase tracking-wide text-stone-700"
      >
        <Headphones aria-hidden="true" className="h-4 w-4" /> Listen
      </h2>
      {/* biome-ignore lint/a11y/useMediaCaption: a poet reading the poem shown beside it; the stanzas are its transcript. */}
      <audio
        ref={audio}
        src={src}
        controls
        preload="none"
        aria-label={`Listen to ${title}`}
        onError={() => setCannotPlay(true)}
        className="h-14 w-full"
      />
      <p role="status" className="min-h-5 text-sm text-stone-700">
        {cannotPlay ? "This recording cannot be played right now." : ""}
      </p>
    </section>
  );
}
