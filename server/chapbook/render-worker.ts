import fs from "node:fs";
import os from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import type { ChapbookContent } from "./content.ts";

/**
 * Makes a chapbook's two files in a worker thread (render.ts), so the server's own thread keeps
 * answering readers while a long PDF is laid out. Progress is the poems the PDF has laid out.
 */

/**
 * A build is background work: where the system allows it (Linux, a thread by its id), this
 * thread gives way to the server's own whenever both want a core, so a book being laid out never
 * slows the pages (docs/decisions/076-chapbook-builds-give-way.md). On an idle machine it runs as
 * fast as before.
 */
const BUILD_NICENESS = 19;
try {
  const threadId = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
  os.setPriority(threadId, BUILD_NICENESS);
} catch {
  // Elsewhere the thread keeps the process's priority: the build still leaves the server's thread.
}

const content = workerData as ChapbookContent;
const port = parentPort;
if (!port) throw new Error("render-worker.ts runs as a worker thread");
// Loaded after the priority is set: the layout libraries' loading is part of the build.
const [{ makeEpub }, { makePdf }] = await Promise.all([import("./epub.ts"), import("./pdf.ts")]);
const epub = makeEpub(content);
const pdf = await makePdf(content, (done) => port.postMessage({ progress: done }));
port.postMessage({ epub, pdf }, [epub.buffer as ArrayBuffer, pdf.buffer as ArrayBuffer]);
