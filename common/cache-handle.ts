/**
 * How a page route says its answer may be cached, in its `handle` export (app/lib/cache-policy.ts's
 * `sharedPage`, `sharedWithAnonymousReaders`), read by the page cache (server/http/cache-policy.ts,
 * server/http/page-cache.ts) before it renders anything:
 * - "shared": the page is the same for every reader of an audience (anonymous, signed-in reader,
 *   admin), since personal state loads after hydration; one copy per audience answers everyone.
 * - "anonymous": the same for every anonymous reader only; a signed-in reader's render holds
 *   their own things (the journal's cloud section), so theirs is rendered afresh.
 * A route that says nothing is rendered afresh for every request.
 */
export interface CacheHandle {
  cache?: "shared" | "anonymous";
}
