import { promisify } from "node:util";
import zlib from "node:zlib";
import type { Encoding } from "./compression.ts";
import { type Validators, validatorsOf } from "./page-representations.ts";

/**
 * The pages the page cache (server/http/page-cache.ts) keeps in memory: each compressed once in
 * both codings, the oldest forgotten past the limits, every one at once on a content change.
 */

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

export const MAX_ENTRIES = 2_000;
const MAX_BYTES = 64 * 1024 * 1024;

/** A page as every reader of an audience gets it: one render's body, its shared headers. */
export interface SharedPage {
  headers: Record<string, string>;
  /** The identity body's hash, from which each coding's validator is made. */
  hash: string;
  identity: Buffer;
  /** How long the route lets a copy be kept (its `s-maxage`), when it changes without a write. */
  lifeMs?: number;
}

/** A shared page kept in memory, with its body compressed once in both codings. */
export interface Entry extends SharedPage {
  validators: Validators;
  /** The 200's headers in each coding, made once: a hit with nothing to add copies nothing. */
  answers: Record<Encoding, Record<string, string>>;
  /** When what readers may see next changes by itself (a new ember day): the copy ends then. */
  expiresAt: number;
  gzip: Buffer;
  br: Buffer;
  bytes: number;
}

/** The copies in memory, by audience and path, and what they weigh. */
export function createPageCopies(
  options: {
    /** When what readers may see next changes without a write. */
    nextVisibilityChange(): Promise<Date>;
  },
  now: () => number,
) {
  const entries = new Map<string, Entry>();
  let generation = 0;
  let bytes = 0;

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };

  async function keep(key: string, page: SharedPage, startedIn: number) {
    const [gzipped, brotlied, expiresAt] = await Promise.all([
      gzip(page.identity, { level: 9 }),
      brotli(page.identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
      options.nextVisibilityChange(),
    ]);
    // A content change during the render may have made this copy stale already; the requests
    // that were waiting for it came before the change, so they were answered from it all the same.
    if (startedIn !== generation) return;
    const validators = validatorsOf(page.hash, true);
    const answerIn = (encoding: Encoding, body: Buffer) => ({
      ...page.headers,
      etag: validators[encoding],
      ...(encoding === "identity" ? {} : { "content-encoding": encoding }),
      "content-length": String(body.length),
    });
    const entry: Entry = {
      ...page,
      validators,
      answers: {
        identity: answerIn("identity", page.identity),
        gzip: answerIn("gzip", gzipped),
        br: answerIn("br", brotlied),
      },
      expiresAt: Math.min(expiresAt.getTime(), now() + (page.lifeMs ?? Number.POSITIVE_INFINITY)),
      gzip: gzipped,
      br: brotlied,
      bytes: page.identity.length + gzipped.length + brotlied.length,
    };
    remove(key);
    entries.set(key, entry);
    bytes += entry.bytes;
    for (const [oldest] of entries) {
      if (entries.size <= MAX_ENTRIES && bytes <= MAX_BYTES) break;
      remove(oldest);
    }
  }

  return {
    get: (key: string) => entries.get(key),
    /** Counts content changes: a copy rendered before the latest one is not kept. */
    generation: () => generation,
    keep,
    clear() {
      generation += 1;
      entries.clear();
      bytes = 0;
    },
    stats: () => ({ entries: entries.size, bytes }),
  };
}

export type PageCopies = ReturnType<typeof createPageCopies>;
