import { serveStatic } from "@hono/node-server/serve-static";
import type { MiddlewareHandler } from "hono";
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from "hono/compress";
import { varyWithAcceptEncoding } from "./compression.ts";
import { notModifiedSince } from "./conditional.ts";

/**
 * The build's files under `root`, as serveStatic finds them, with `cacheControl`, and a 304 for
 * an If-Modified-Since at or after a file's Last-Modified. `precompressed`: each text file has a
 * .br and a .gz beside it (react-router.config.ts), so whichever copy answers varies with
 * Accept-Encoding: the plain one too, a small file's, a HEAD's. A path that names no file goes on.
 */
export function builtFiles(
  root: string,
  options: { cacheControl: string; precompressed?: boolean },
): MiddlewareHandler {
  const serve = serveStatic({ root, precompressed: options.precompressed });
  return (c, next) =>
    notModifiedSince(c, async () => {
      // Called here rather than by Hono, its answer is ours to put in place.
      const found = await serve(c, next);
      if (found) c.res = found;
      // Only serveStatic answers with Last-Modified here: a file was found. (Its own onFound
      // runs once the answer is made, too late for a header outside node:http.)
      if (!c.res.headers.has("Last-Modified")) return;
      c.header("Cache-Control", options.cacheControl);
      if (
        options.precompressed &&
        COMPRESSIBLE_CONTENT_TYPE_REGEX.test(c.res.headers.get("Content-Type") ?? "")
      ) {
        varyWithAcceptEncoding(c);
      }
    });
}
