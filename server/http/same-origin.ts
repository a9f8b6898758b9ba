import type { MiddlewareHandler } from "hono";
import type { Config } from "../config.ts";
import { forbidden } from "../core/errors.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cookie-authenticated mutations must come from this site's own pages: a foreign Origin, or a
 * Sec-Fetch-Site naming another site, is refused with 403 before the handler runs. Requests with
 * neither header come from no browser, so carry no ambient cookie risk.
 */
export function requireSameOrigin(
  config: Config,
  exempt: (path: string) => boolean = () => false,
): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method) || exempt(c.req.path)) return next();
    const origin = c.req.header("origin");
    if (origin !== undefined) {
      if (origin !== config.publicUrl.origin) throw forbidden("Cross-site request refused");
    } else {
      const site = c.req.header("sec-fetch-site");
      if (site !== undefined && site !== "same-origin" && site !== "none") {
        throw forbidden("Cross-site request refused");
      }
    }
    return next();
  };
}
