import fs from "node:fs";
import { serveStatic } from "@hono/node-server/serve-static";
import type { Context, MiddlewareHandler } from "hono";
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from "hono/compress";
import { varyWithAcceptEncoding } from "./compression.ts";
import { notModifiedSince } from "./conditional.ts";

/**
 * The build's files under `root`, as serveStatic finds them, with `cacheControl`, and a 304 for
 * an If-Modified-Since at or after a file's Last-Modified. `precompressed`: each text file has a
 * .br and a .gz beside it (react-router.config.ts), so whichever copy answers varies with
 * Accept-Encoding: the plain one too, a small file's, a HEAD's, and every copy is dated with the
 * file's own Last-Modified (the build writes the copies a moment later): one instant for one
 * content, whichever coding carries it. A path that names no file goes on.
 */
export function builtFiles(
  root: string,
  options: { cacheControl: string; precompressed?: boolean },
): MiddlewareHandler {
  /** The file each answer was found in (serveStatic says so, per request). */
  const foundIn = new WeakMap<Context, string>();
  /** Each compressed copy's own file's date: built files do not change under their name. */
  const datesOfOwnFile = new Map<string, string>();
  const serve = serveStatic({
    root,
    precompressed: options.precompressed,
    onFound: (path, c) => void foundIn.set(c, path),
  });
  const dateOfOwnFile = (copy: string) => {
    let date = datesOfOwnFile.get(copy);
    if (date === undefined) {
      date = fs.statSync(copy.replace(/\.(?:br|gz|zst)$/, "")).mtime.toUTCString();
      datesOfOwnFile.set(copy, date);
    }
    return date;
  };
  return (c, next) =>
    notModifiedSince(c, async () => {
      // Called here rather than by Hono, its answer is ours to put in place. When no file is
      // found it hands on to `next`, whose return value (Hono's context) is no answer.
      const found: unknown = await serve(c, next);
      if (found instanceof Response) c.res = found;
      // Only serveStatic answers with Last-Modified here: a file was found. (Its own onFound
      // runs once the answer is made, too late for a header outside node:http.)
      if (!c.res.headers.has("Last-Modified")) return;
      c.header("Cache-Control", options.cacheControl);
      const copy = foundIn.get(c);
      const isEncoded = c.res.headers.has("Content-Encoding");
      if (copy && isEncoded) c.header("Last-Modified", dateOfOwnFile(copy));
      const isText = COMPRESSIBLE_CONTENT_TYPE_REGEX.test(c.res.headers.get("Content-Type") ?? "");
      if (options.precompressed && isText) varyWithAcceptEncoding(c);
      // serveStatic answers a HEAD with no body, and a file without a compressed copy is gzipped
      // on the way out (compressText): the HEAD gets the bytes too, to be told its GET's length.
      if (copy && c.req.method === "HEAD" && isText && !isEncoded) {
        c.res = new Response(fs.readFileSync(copy), c.res);
      }
    });
}
