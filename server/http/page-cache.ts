import type { IncomingMessage, ServerResponse } from "node:http";
import type { Audience } from "../../common/session.ts";
import { clearedSessionCookie, sessionCookieIn } from "../accounts/session-cookie.ts";
import type { Logger } from "../logger.ts";
import { wantsActivityJson } from "./activity-negotiation.ts";
import type { Sharing } from "./cache-policy.ts";
import { answerFromMemory, answerFromRender, NOTHING_TO_ADD } from "./page-answers.ts";
import { createPageCopies } from "./page-copies.ts";
import { createPageRenders } from "./page-renders.ts";

export interface PageCache {
  /**
   * Answers a cacheable request from memory, or from one render shared by every request for the
   * page meanwhile; anything else, and a page that cannot be shared, goes to `passToApp`.
   */
  serve(request: IncomingMessage, response: ServerResponse, passToApp: () => void): void;
  /** Forgets every page (content changed); pages being rendered now are not kept either. */
  clear(): void;
  stats(): { entries: number; bytes: number; hits: number; misses: number };
}

/**
 * Anonymous pages kept in memory as rendered HTML (and `.data`, content API reads, the sitemap
 * and feed), served with an ETag, 304s and precompressed bodies straight from node:http. The
 * first request for a page is answered from the render that fills the cache, so it carries the
 * same ETag and policy as every later copy. Which answers may be kept, the routes say
 * (`sharingOf`, server/http/cache-policy.ts); a content change clears them all (ContentChanges),
 * and each copy ends by itself when visibility next changes (`nextVisibilityChange`,
 * server/db/visibility.ts: a scheduled poem, the next ember day), or sooner when its route
 * answered with an `s-maxage` (echo counts, which change with every reader's echo).
 */
export function createPageCache(options: {
  /** Renders a path as a reader of `audience` would see it, as none of them in particular. */
  render(pathWithQuery: string, audience: Audience): Promise<Response>;
  /** How the route answering this path lets its answer be kept, if at all. */
  sharingOf(pathWithQuery: string): Sharing | undefined;
  /** The audience of a session cookie, and whether it names a session at all. */
  audienceOf(cookieHeader: string): Promise<{ audience: Audience; isSignedIn: boolean }>;
  /** When what readers may see next changes without a write. */
  nextVisibilityChange(): Promise<Date>;
  logger: Logger;
  /** The clock copies expire by (tests set it; servers read the time). */
  now?: () => number;
}): PageCache {
  const now = options.now ?? (() => Date.now());
  const copies = createPageCopies(options, now);
  const renders = createPageRenders(options, now, copies);
  let hits = 0;
  let misses = 0;

  /** Answers from the audience's copy in memory, or from its one render under way or new. */
  function answerFor(
    request: IncomingMessage,
    response: ServerResponse,
    passToApp: () => void,
    url: string,
    audience: Audience,
    extraHeaders: Record<string, string>,
  ) {
    const key = `${audience} ${url}`;
    const entry = copies.get(key);
    if (entry && now() < entry.expiresAt) {
      hits += 1;
      return answerFromMemory(request, response, entry, extraHeaders);
    }
    misses += 1;
    if (renders.isNotCacheable(key)) return passToApp();
    void renders
      .renderOnce(key, url, audience)
      .then((page) =>
        page ? answerFromRender(request, response, page, extraHeaders) : passToApp(),
      )
      .catch((error: unknown) => {
        options.logger.error({ err: error, path: url }, "page could not be answered");
        response.destroy();
      });
  }

  return {
    serve(request, response, passToApp) {
      const url = request.url ?? "/";
      const sharing =
        request.method === "GET" || request.method === "HEAD" ? options.sharingOf(url) : undefined;
      // An ActivityStreams client asks for the poem's object, not the page kept here.
      if (!sharing || wantsActivityJson(request.headers.accept)) return passToApp();
      const cookie = request.headers.cookie ?? "";
      const sessionCookie = sessionCookieIn(cookie)?.name;
      if (!sessionCookie) {
        return answerFor(request, response, passToApp, url, "anonymous", NOTHING_TO_ADD);
      }
      void options
        .audienceOf(cookie)
        .then(({ audience, isSignedIn }) => {
          if (sharing === "anonymous" && audience !== "anonymous") return passToApp();
          // A cookie naming no session (forged, expired, signed out): the anonymous page, and
          // the cookie goes.
          const clearing: Record<string, string> = isSignedIn
            ? NOTHING_TO_ADD
            : { "set-cookie": clearedSessionCookie(sessionCookie) };
          answerFor(request, response, passToApp, url, audience, clearing);
        })
        // The session store is away: the app answers, with its own page for that.
        .catch(() => passToApp());
    },

    clear() {
      copies.clear();
      renders.clear();
    },

    stats: () => ({ ...copies.stats(), hits, misses }),
  };
}
