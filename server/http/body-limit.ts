import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";

/**
 * Refuses a request body over `maxBytes` with 413 before it is read. A declared Content-Length
 * decides from the header alone. Hono's own bodyLimit asks the request for its `body` first,
 * and under @hono/node-server that one touch builds a whole web Request around a stream of the
 * socket: about a tenth of a millisecond on every API call, a GET's included, and it takes the
 * JSON body off the server's direct read. Only a body that declares no length (chunked) goes
 * through hono's counting reader, where the bytes received decide.
 */
export function apiBodyLimit(
  maxBytes: number,
  /** A path that reads its own body under its own, larger limit (an import's export file). */
  isExempt: (path: string) => boolean = () => false,
): MiddlewareHandler {
  const tooLarge = (): never => {
    throw new HTTPException(413);
  };
  const counted = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  return (c, next) => {
    // No route reads the body of a GET or a HEAD.
    if (c.req.method === "GET" || c.req.method === "HEAD" || isExempt(c.req.path)) return next();
    const declared = c.req.header("content-length");
    if (declared !== undefined && c.req.header("transfer-encoding") === undefined) {
      return Number(declared) > maxBytes ? tooLarge() : next();
    }
    return counted(c, next);
  };
}
