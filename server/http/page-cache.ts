import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { Audience } from "../../common/session.ts";
import { clearedSessionCookie, sessionCookieIn } from "../accounts/session-cookie.ts";
import type { Logger } from "../logger.ts";
import { wantsActivityJson } from "./activity-negotiation.ts";
import type { Sharing } from "./cache-policy.ts";
import {
  acceptsGzip,
  type Encoding,
  gzipForOneResponse,
  preferredEncoding,
} from "./compression.ts";
import {
  notModifiedValidator,
  type Validators,
  validatorsOf,
  withoutNonce,
  withVary,
} from "./page-representations.ts";

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

const MAX_ENTRIES = 2_000;
const MAX_BYTES = 64 * 1024 * 1024;
const NOT_CACHEABLE_MS = 60_000;
/** Headers that belong to one response, not to the page. */
const PER_RESPONSE_HEADERS = new Set([
  "date",
  "content-length",
  "content-encoding",
  "x-request-id",
  "transfer-encoding",
  "connection",
  "keep-alive",
]);

/** A page as every reader of an audience gets it: one render's body, its shared headers. */
interface SharedPage {
  headers: Record<string, string>;
  /** The identity body's hash, from which each coding's validator is made. */
  hash: string;
  identity: Buffer;
  /** How long the route lets a copy be kept (its `s-maxage`), when it changes without a write. */
  lifeMs?: number;
}

/** A shared page kept in memory, with its body compressed once in both codings. */
interface Entry extends SharedPage {
  validators: Validators;
  /** The 200's headers in each coding, made once: a hit with nothing to add copies nothing. */
  answers: Record<Encoding, Record<string, string>>;
  /** When what readers may see next changes by itself (a new ember day): the copy ends then. */
  expiresAt: number;
  gzip: Buffer;
  br: Buffer;
  bytes: number;
}

/** The extra headers of an answer that adds none to the page's own (no cookie to clear). */
const NOTHING_TO_ADD: Record<string, string> = Object.freeze({});

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
  const entries = new Map<string, Entry>();
  /**
   * Renders under way (and the keeping of their copies), one per page: a request for a page that
   * is not in memory yet waits for its render instead of starting another.
   */
  const rendering = new Map<string, Promise<SharedPage | undefined>>();
  /** Paths whose render was not cacheable, and until when not to try again. */
  const notCacheable = new Map<string, number>();
  let generation = 0;
  let bytes = 0;
  let hits = 0;
  let misses = 0;

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };

  /**
   * Renders a page for every reader of an audience, as none of them in particular; undefined when
   * its answer cannot be shared (a 404, one that sets a cookie, or one the route marked no-store:
   * the admin's preview of a draft).
   */
  async function renderShared(
    key: string,
    url: string,
    audience: Audience,
  ): Promise<SharedPage | undefined> {
    const rendered = await options.render(url, audience);
    if (
      rendered.status !== 200 ||
      rendered.headers.has("set-cookie") ||
      rendered.headers.get("cache-control")?.includes("no-store")
    ) {
      // A 404 or a personal answer: do not render it twice per request for a while.
      notCacheable.set(key, now() + NOT_CACHEABLE_MS);
      if (notCacheable.size > MAX_ENTRIES) notCacheable.clear();
      return undefined;
    }
    const headers: Record<string, string> = {};
    rendered.headers.forEach((value, name) => {
      if (!PER_RESPONSE_HEADERS.has(name)) headers[name] = value;
    });
    let identity: Buffer = Buffer.from(await rendered.arrayBuffer());
    const renderedPolicy = headers["content-security-policy"];
    if (renderedPolicy) {
      const shared = withoutNonce(renderedPolicy, identity);
      headers["content-security-policy"] = shared.policy;
      identity = shared.body;
    }
    const hash = createHash("sha256").update(identity).digest("base64url").slice(0, 27);
    const sharedMaxAge = /\bs-maxage=(\d+)/.exec(headers["cache-control"] ?? "")?.[1];
    return {
      headers: {
        ...headers,
        vary: withVary(headers.vary, ["Accept-Encoding", "Cookie"]),
        // A signed-in audience's copy is shared by its readers here, never by a cache between.
        "cache-control": audience === "anonymous" ? "no-cache" : "private, no-cache",
      },
      hash,
      identity,
      lifeMs: sharedMaxAge === undefined ? undefined : Number(sharedMaxAge) * 1000,
    };
  }

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

  /** The page's render under way, or a new one, which is kept in memory once compressed. */
  function renderOnce(
    key: string,
    url: string,
    audience: Audience,
  ): Promise<SharedPage | undefined> {
    const pending = rendering.get(key);
    if (pending) return pending;
    const startedIn = generation;
    const page = renderShared(key, url, audience).catch((error: unknown) => {
      options.logger.warn({ err: error, path: key }, "page could not be rendered for sharing");
      return undefined;
    });
    rendering.set(key, page);
    // Requests that come while the copy is compressed (Brotli 11 takes longer than the render)
    // are answered from this render too, rather than starting another.
    void page
      .then((rendered) => rendered && keep(key, rendered, startedIn))
      .catch((error: unknown) => {
        options.logger.warn({ err: error, path: key }, "page could not be cached");
      })
      .finally(() => {
        if (rendering.get(key) === page) rendering.delete(key);
      });
    return page;
  }

  function answerNotModified(
    response: ServerResponse,
    page: SharedPage,
    etag: string,
    extraHeaders: Record<string, string>,
  ) {
    response.writeHead(304, {
      ...extraHeaders,
      etag,
      vary: page.headers.vary ?? "",
      "cache-control": page.headers["cache-control"] ?? "no-cache",
    });
    response.end();
  }

  function answerFromMemory(
    request: IncomingMessage,
    response: ServerResponse,
    entry: Entry,
    extraHeaders: Record<string, string>,
  ) {
    const encoding = preferredEncoding(request.headers["accept-encoding"]);
    const held = notModifiedValidator(request, entry.validators, encoding);
    if (held) return answerNotModified(response, entry, held, extraHeaders);
    const body = encoding === "br" ? entry.br : encoding === "gzip" ? entry.gzip : entry.identity;
    const answer = entry.answers[encoding];
    response.writeHead(
      200,
      extraHeaders === NOTHING_TO_ADD ? answer : { ...answer, ...extraHeaders },
    );
    response.end(request.method === "HEAD" ? undefined : body);
  }

  /** A page just rendered has no compressed copies yet: it is gzipped for this response alone. */
  async function answerFromRender(
    request: IncomingMessage,
    response: ServerResponse,
    page: SharedPage,
    extraHeaders: Record<string, string>,
  ) {
    // A HEAD is told what its GET would be sent: the same coding, the same length.
    const isGzipped = acceptsGzip(request.headers["accept-encoding"]);
    const validators = validatorsOf(page.hash, false);
    const encoding = isGzipped ? "gzip" : "identity";
    const held = notModifiedValidator(request, validators, encoding);
    if (held) return answerNotModified(response, page, held, extraHeaders);
    const body = isGzipped ? await gzipForOneResponse(page.identity) : page.identity;
    response.writeHead(200, {
      ...page.headers,
      ...extraHeaders,
      etag: validators[encoding],
      ...(isGzipped ? { "content-encoding": "gzip" } : {}),
      "content-length": String(body.length),
    });
    response.end(request.method === "HEAD" ? undefined : body);
  }

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
    const entry = entries.get(key);
    if (entry && now() < entry.expiresAt) {
      hits += 1;
      return answerFromMemory(request, response, entry, extraHeaders);
    }
    misses += 1;
    if ((notCacheable.get(key) ?? 0) > now()) return passToApp();
    void renderOnce(key, url, audience)
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
      generation += 1;
      entries.clear();
      rendering.clear();
      notCacheable.clear();
      bytes = 0;
    },

    stats: () => ({ entries: entries.size, bytes, hits, misses }),
  };
}
