import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import sharp from "sharp";
import { stanzaLines } from "../common/stanza.ts";
import type { ChapbookContent } from "../server/chapbook/content.ts";
import { makeEpub } from "../server/chapbook/epub.ts";
import { makePdf } from "../server/chapbook/pdf.ts";
import { renderChapbook } from "../server/chapbook/render.ts";
import { DEMO_POEMS } from "../server/db/demo/content.ts";

/**
 * `npm run bench:chapbook`: how long a chapbook of BENCH_CHAPBOOK_POEMS (60) poems takes to make
 * (docs/performance/chapbook-builds.md; targets: the PDF under 10 s, the EPUB under 2 s on one
 * core). The poems are the demo's, repeated under new titles, with the demo's timed reading on
 * each poem that has one (the EPUB's Media Overlays) and an uploaded-size cover. Run it on one
 * core as the target says: `taskset -c 1 npm run bench:chapbook`. Times each file RUNS (5) times
 * in this thread (the first run also loads the fonts), then once through the worker thread the
 * builder uses. Writes bench-results/chapbook.json.
 */
const POEMS = Number(process.env.BENCH_CHAPBOOK_POEMS ?? 60);
const RUNS = Number(process.env.BENCH_CHAPBOOK_RUNS ?? 5);

const reading = new Uint8Array(
  fs.readFileSync(path.resolve(import.meta.dirname, "../server/db/demo/small-liturgy-reading.mp3")),
);
const cover = await sharp({
  create: { width: 1600, height: 2560, channels: 3, background: "#3b6e8f" },
})
  .jpeg({ quality: 85 })
  .toBuffer();

const content: ChapbookContent = {
  title: "Sixty Small Fires",
  subtitle: "Poems, 2024–2026",
  dedication: "For the ones who set a plate before we asked.",
  epigraph: "Nothing is lost. It only changes where it keeps itself.",
  acknowledgements: "Each of these poems first appeared on Ember Verse.",
  aboutPoet: "The poet writes by the sea.",
  author: "Rowan Ash",
  siteUrl: "http://localhost:3000",
  slug: "sixty-small-fires",
  copyright: "© 2026 Rowan Ash. All rights reserved.",
  modified: new Date("2026-11-29T00:00:00Z").toISOString(),
  published: "2026-11-28",
  trim: "5.5x8.5",
  bleed: true,
  rectoStarts: true,
  face: "eb-garamond",
  cover: { jpeg: new Uint8Array(cover), width: 1600, height: 2560 },
  poems: Array.from({ length: POEMS }, (_, at) => {
    const poem = DEMO_POEMS[at % DEMO_POEMS.length];
    if (!poem) throw new Error("no demo poems");
    return {
      title: `${poem.title} ${Math.floor(at / DEMO_POEMS.length) + 1}`,
      stanzas: poem.stanzas.map((stanza) => stanzaLines(stanza)),
      reading: poem.reading
        ? {
            bytes: reading,
            mediaType: "audio/mpeg" as const,
            extension: "mp3" as const,
            timings: poem.reading.stanzaTimings,
            duration: poem.reading.duration,
          }
        : null,
    };
  }),
};

/**
 * Wall time, and this process's CPU time meanwhile: on a machine shared with other work the
 * wall time includes waiting for the core, the CPU time does not.
 */
async function time(
  make: () => Uint8Array | Promise<Uint8Array>,
): Promise<{ ms: number; cpuMs: number; bytes: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const file = await make();
  const used = process.cpuUsage(cpu);
  return {
    ms: Math.round(performance.now() - started),
    cpuMs: Math.round((used.user + used.system) / 1000),
    bytes: file.byteLength,
  };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

type Run = Awaited<ReturnType<typeof time>>;
const pdfRuns: Run[] = [];
const epubRuns: Run[] = [];
for (let run = 0; run < RUNS; run++) {
  pdfRuns.push(await time(() => makePdf(content)));
  epubRuns.push(await time(() => makeEpub(content)));
}
const workerStarted = performance.now();
const files = await renderChapbook(content, () => {});
const workerMs = Math.round(performance.now() - workerStarted);

const results = {
  poems: POEMS,
  cpusAllowed: os.availableParallelism(),
  loadAverage: os.loadavg()[0]?.toFixed(1),
  pdf: {
    firstMs: pdfRuns[0]?.ms,
    medianMs: median(pdfRuns.map((run) => run.ms)),
    medianCpuMs: median(pdfRuns.map((run) => run.cpuMs)),
    bytes: pdfRuns[0]?.bytes,
  },
  epub: {
    firstMs: epubRuns[0]?.ms,
    medianMs: median(epubRuns.map((run) => run.ms)),
    medianCpuMs: median(epubRuns.map((run) => run.cpuMs)),
    bytes: epubRuns[0]?.bytes,
  },
  workerBothMs: workerMs,
  workerBytes: { pdf: files.pdf.byteLength, epub: files.epub.byteLength },
};
fs.mkdirSync("bench-results", { recursive: true });
fs.writeFileSync("bench-results/chapbook.json", `${JSON.stringify(results, null, 2)}\n`);
console.log(JSON.stringify(results, null, 2));
