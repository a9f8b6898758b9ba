import { parentPort, workerData } from "node:worker_threads";
import type { ChapbookContent } from "./content.ts";
import { makeEpub } from "./epub.ts";
import { makePdf } from "./pdf.ts";

/**
 * Makes a chapbook's two files in a worker thread (render.ts), so the server's own thread keeps
 * answering readers while a long PDF is laid out. Progress is the poems the PDF has laid out.
 */
const content = workerData as ChapbookContent;
const port = parentPort;
if (!port) throw new Error("render-worker.ts runs as a worker thread");
const epub = makeEpub(content);
const pdf = await makePdf(content, (done) => port.postMessage({ progress: done }));
port.postMessage({ epub, pdf }, [epub.buffer as ArrayBuffer, pdf.buffer as ArrayBuffer]);
