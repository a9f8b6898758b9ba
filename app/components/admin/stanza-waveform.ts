import WaveSurfer from "wavesurfer.js";
import RegionsPlugin from "wavesurfer.js/dist/plugins/regions.esm.js";

/**
 * The reading's waveform with a marker where each stanza begins, each dragged along it
 * (docs/decisions/073-stanza-timings-on-the-waveform.md). Drawn over the editor's own audio
 * element, so the waveform, the 'Next stanza' taps and the player share one playhead. This module
 * is the editor's only way to wavesurfer.js, imported when the poet first asks for the waveform.
 */

/** Columns of the drawn waveform: finer than any editor is wide. */
const PEAK_COLUMNS = 2_000;

/**
 * The reading decoded here, and its loudest sample per column: wavesurfer.js given the peaks
 * leaves the audio element playing the reading from its own address, where it would otherwise
 * play a copy from a blob: address, which the site's media-src does not allow.
 */
async function readingPeaks(url: string): Promise<{ peaks: number[]; duration: number }> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`The reading answered ${response.status}`);
  const decoder = new OfflineAudioContext(1, 1, 44_100);
  const audio = await decoder.decodeAudioData(await response.arrayBuffer());
  const samples = audio.getChannelData(0);
  const perColumn = Math.max(1, Math.floor(samples.length / PEAK_COLUMNS));
  const peaks: number[] = [];
  for (let start = 0; start < samples.length; start += perColumn) {
    let loudest = 0;
    for (let at = start; at < Math.min(samples.length, start + perColumn); at++) {
      loudest = Math.max(loudest, Math.abs(samples[at] ?? 0));
    }
    peaks.push(loudest);
  }
  return { peaks, duration: audio.duration };
}
export interface StanzaWaveform {
  /** Puts one marker per time, numbered from 1 (the stanzas as the poet counts them). */
  showTimings(timings: number[]): void;
  destroy(): void;
}

const MARKER_COLOUR = "#b45309";

export async function createStanzaWaveform({
  container,
  media,
  url,
  timings: initialTimings,
  onMoved,
  onReady,
}: {
  container: HTMLElement;
  media: HTMLMediaElement;
  url: string;
  timings: number[];
  /** A marker was dropped at `time` (seconds, unrounded). */
  onMoved: (stanza: number, time: number) => void;
  onReady: () => void;
}): Promise<StanzaWaveform> {
  const { peaks, duration } = await readingPeaks(url);
  const waveform = WaveSurfer.create({
    container,
    media,
    url,
    peaks: [peaks],
    duration,
    height: 96,
    waveColor: "#a8a29e",
    progressColor: "#57534e",
    cursorColor: "#1c1917",
    normalize: true,
  });
  const markers = waveform.registerPlugin(RegionsPlugin.create());
  let timings = initialTimings;

  const draw = () => {
    markers.clearRegions();
    timings.forEach((start, stanza) => {
      markers.addRegion({
        id: `stanza-${stanza}`,
        start,
        content: String(stanza + 1),
        color: MARKER_COLOUR,
        drag: true,
        resize: false,
      });
    });
  };

  markers.on("region-updated", (region) => {
    const stanza = Number(region.id.replace("stanza-", ""));
    if (Number.isInteger(stanza)) onMoved(stanza, region.start);
  });
  waveform.on("ready", () => {
    draw();
    onReady();
  });

  return {
    showTimings(next) {
      timings = next;
      if (waveform.getDuration() > 0) draw();
    },
    destroy: () => waveform.destroy(),
  };
}
