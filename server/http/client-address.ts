import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";

/**
 * The client's address for rate limits: the socket's, or, behind TRUST_PROXY reverse proxies,
 * the address that many hops from the right of X-Forwarded-For. Without TRUST_PROXY the header is
 * ignored, so a client cannot dodge a limit by sending one.
 */
export function clientAddress(c: Context, trustProxy: number): string {
  if (trustProxy > 0) {
    const hops = (c.req.header("x-forwarded-for") ?? "")
      .split(",")
      .map((hop) => hop.trim())
      .filter(Boolean);
    const address = hops[hops.length - trustProxy];
    if (address) return address;
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    // app.request() in tests has no socket.
    return "unknown";
  }
}
