import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { DEMO_POEMS } from "../server/db/demo/content.ts";
import { substackExport } from "../tests/helpers/import-files.ts";
import { signInWithLink } from "../tests/helpers/operator.ts";
import { startServer } from "../tests/helpers/server.ts";

/**
 * `npm run bench:import`: the production server on a fresh embedded database imports a Substack
 * export of BENCH_IMPORT_POEMS (2,000) poems and BENCH_IMPORT_SUBSCRIBERS (50,000) subscribers
 * through the admin API (preview, then the confirmed job on the background loop), while autocannon
 * reads a poem page, which the page cache keeps, the whole time. Reports the import's time and
 * rows a second and the poem page's latency meanwhile (docs/product/performance.md: under a
 * minute, p99 ≤ 100 ms). Covers are kept as references: fetching them would time the network.
 * Writes bench-results/import.json.
 */
const POEMS = Number(process.env.BENCH_IMPORT_POEMS ?? 2_000);
const SUBSCRIBERS = Number(process.env.BENCH_IMPORT_SUBSCRIBERS ?? 50_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

/**
 * One admin call on a connection of its own: autocannon keeps this process's event loop busy,
 * so a kept-alive connection may be reused after the server has closed it.
 */
function call(
  url: string,
  origin: string,
  cookie: string,
  init: { body?: Uint8Array; json?: unknown },
): Promise<{ status: number; text(): Promise<string>; json(): Promise<never> }> {
  const body = init.json === undefined ? init.body : Buffer.from(JSON.stringify(init.json));
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: body === undefined ? "GET" : "POST",
        agent: false,
        headers: {
          Cookie: cookie,
          Origin: origin,
          "Content-Type": init.json === undefined ? "application/zip" : "application/json",
          ...(body ? { "Content-Length": String(body.byteLength) } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({
            status: response.statusCode ?? 0,
            text: async () => text,
            json: async () => JSON.parse(text) as never,
          });
        });
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

const exportFile = substackExport({ poems: POEMS, subscribers: SUBSCRIBERS });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ev-bench-import-"));
const app = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: "warn" });
try {
  const poemPage = `${app.url}/poetry/${DEMO_POEMS[0]?.slug}`;
  await autocannon({ url: poemPage, connections: CONNECTIONS, duration: 2 });
  const { stdout } = await app.cli("login-link", "bench@example.com", "--admin");
  const cookie = await signInWithLink(stdout.trim());
  const api = (pathname: string, init: { body?: Uint8Array; json?: unknown } = {}) =>
    call(`${app.url}${pathname}`, app.url, cookie, init);

  const previewStarted = performance.now();
  const previewed = await api("/api/admin/import/preview?fileName=substack-export.zip", {
    body: exportFile,
  });
  if (previewed.status !== 201) {
    throw new Error(`preview answered ${previewed.status}: ${await previewed.text()}`);
  }
  const preview = (await previewed.json()) as { job: { id: number } };
  const previewMs = performance.now() - previewStarted;

  // The reader's load runs from the confirmation until the job is done, and is then stopped.
  let readers: autocannon.Instance | undefined;
  const readersDone = new Promise<autocannon.Result>((resolve, reject) => {
    readers = autocannon(
      { url: poemPage, connections: CONNECTIONS, duration: 600 },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
  const started = performance.now();
  const confirmed = await api(`/api/admin/import/jobs/${preview.job.id}/confirm`, {
    json: { exclude: [], fetchCovers: false, subscribersConsented: true },
  });
  if (confirmed.status !== 200) throw new Error(`confirm answered ${confirmed.status}`);
  let job: {
    state: string;
    poemsImported: number;
    subscribersImported: number;
    subscribersSkipped: number;
    error: string | null;
  };
  do {
    await new Promise((resolve) => setTimeout(resolve, 100));
    job = await (await api(`/api/admin/import/jobs/${preview.job.id}`)).json();
  } while (job.state === "importing");
  const importMs = performance.now() - started;
  readers?.stop();
  const load = await readersDone;
  if (job.state !== "done") throw new Error(`the import ${job.state}: ${job.error}`);

  const rows = job.poemsImported + job.subscribersImported;
  const result = {
    poems: job.poemsImported,
    subscribers: job.subscribersImported,
    subscribersSkipped: job.subscribersSkipped,
    exportMegabytes: Number((exportFile.byteLength / 1024 / 1024).toFixed(1)),
    previewSeconds: Number((previewMs / 1000).toFixed(1)),
    importSeconds: Number((importMs / 1000).toFixed(1)),
    rowsPerSecond: Math.round((rows / importMs) * 1000),
    poemPageDuringImport: {
      requests: load.requests.total,
      p50Ms: load.latency.p50,
      p99Ms: load.latency.p99,
      non2xx: load.non2xx + load.errors,
    },
  };
  process.stdout.write(
    `import: ${result.poems} poems and ${result.subscribers} subscribers (${result.subscribersSkipped} skipped) ` +
      `in ${result.importSeconds} s after a ${result.previewSeconds} s preview of ${result.exportMegabytes} MB ` +
      `(${result.rowsPerSecond} rows/s); poem page meanwhile: p50 ${load.latency.p50} ms, ` +
      `p99 ${load.latency.p99} ms over ${load.requests.total} requests, ${result.poemPageDuringImport.non2xx} not 2xx\n`,
  );
  fs.mkdirSync("bench-results", { recursive: true });
  fs.writeFileSync("bench-results/import.json", `${JSON.stringify(result, null, 2)}\n`);
} catch (error) {
  process.stderr.write(`${app.logs.slice(-20).join("\n")}\n`);
  throw error;
} finally {
  await app.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
