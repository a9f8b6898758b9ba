import type { z } from "zod/mini";
import type { Endpoint } from "../../common/endpoints.ts";

/** The site's origin in tests (createTestApp's PUBLIC_URL): what a page of the site sends as Origin. */
export const SITE_ORIGIN = "http://localhost:3000";

export interface ApiRequest {
  /**
   * A JSON value, sent as application/json; URLSearchParams goes as a form, and bytes as they
   * are (say what they are in `headers`).
   */
  body?: unknown;
  /** The session cookie (signIn in session.ts), absent for an anonymous caller. */
  cookie?: string;
  /** The Origin a browser would send: SITE_ORIGIN for the site's own pages. */
  origin?: string;
  /** Anything else, such as X-Forwarded-For; these win over the ones above. */
  headers?: Record<string, string>;
}

/**
 * Every integration and security test calls the app this way: method, path, and what a browser
 * (or a mail client, or an attacker) would send with it.
 */
export function api(
  app: { request: (path: string, init: RequestInit) => Response | Promise<Response> },
  method: string,
  path: string,
  { body, cookie, origin, headers }: ApiRequest = {},
): Promise<Response> {
  const isRaw = body instanceof Uint8Array || typeof body === "string";
  const isForm = body instanceof URLSearchParams;
  return Promise.resolve(
    app.request(path, {
      method,
      headers: {
        ...(body === undefined || isRaw
          ? {}
          : {
              "Content-Type": isForm ? "application/x-www-form-urlencoded" : "application/json",
            }),
        ...(cookie ? { Cookie: cookie } : {}),
        ...(origin ? { Origin: origin } : {}),
        ...headers,
      },
      body:
        body === undefined
          ? undefined
          : isRaw || isForm
            ? (body as BodyInit)
            : JSON.stringify(body),
    }),
  );
}

/** An answer's JSON as the wire carries it, typed by the call's schema (common/endpoints.ts). */
export async function wireAnswer<E extends Endpoint>(
  _endpoint: E,
  response: Response,
): Promise<z.input<E["answer"]>> {
  return (await response.json()) as z.input<E["answer"]>;
}
