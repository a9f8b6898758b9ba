import { STANZA_CHOSEN_EVENT } from "../../common/stanza-events.ts";
import { stanzaAtTime } from "../../common/stanza-timings.ts";

/**
 * A timed reading and the stanza viewer following each other (docs/product/chapbook.md, The voice
 * read along), loaded when the reading first plays: as each stanza's time comes the viewer is
 * moved there (through the address's #s-{n}, which the viewer follows); a reader who moves the
 * viewer while it plays moves the voice there. Answers how to stop.
 */
export function followViewer(element: HTMLAudioElement, timings: number[]): () => void {
  let shown = -1;
  const follow = () => {
    const stanza = stanzaAtTime(timings, element.currentTime);
    if (element.paused || stanza === shown) return;
    shown = stanza;
    window.history.replaceState(window.history.state, "", `#s-${stanza}`);
    window.dispatchEvent(new HashChangeEvent("hashchange"));
  };
  const seek = (event: Event) => {
    const stanza = (event as CustomEvent<number>).detail;
    const start = timings[stanza];
    if (element.paused || start === undefined) return;
    shown = stanza;
    element.currentTime = start;
  };
  element.addEventListener("timeupdate", follow);
  element.addEventListener("play", follow);
  window.addEventListener(STANZA_CHOSEN_EVENT, seek);
  follow();
  return () => {
    element.removeEventListener("timeupdate", follow);
    element.removeEventListener("play", follow);
    window.removeEventListener(STANZA_CHOSEN_EVENT, seek);
  };
}
