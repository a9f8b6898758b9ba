import { Worker } from "node:worker_threads";
import type { ChapbookContent } from "./content.ts";

export interface ChapbookFiles {
  pdf: Uint8Array;
  epub: Uint8Array;
}

/**
 * Makes a chapbook's PDF and EPUB in a worker thread (render-worker.ts): the layout is CPU work
 * of seconds, which on the server's own thread would hold up every page meanwhile.
 */
export function renderChapbook(
  content: ChapbookContent,
  onProgress: (poemsDone: number) => void,
): Promise<ChapbookFiles> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./render-worker.ts", import.meta.url), {
      workerData: content,
    });
    let files: ChapbookFiles | undefined;
    worker.on("message", (message: { progress: number } | ChapbookFiles) => {
      if ("progress" in message) onProgress(message.progress);
      else files = message;
    });
    worker.on("error", reject);
    worker.on("exit", (code) => {
      if (files) resolve(files);
      else reject(new Error(`The chapbook's worker stopped (exit code ${code}) without its files`));
    });
  });
}
