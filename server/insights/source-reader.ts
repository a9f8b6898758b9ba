import { eq } from "drizzle-orm";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { fediverseFollowers, remoteAccounts } from "../db/schema.ts";
import { cleanName, type Source, sourceOf } from "./sources.ts";

/**
 * How often the servers of the site's fediverse followers are read again, so a referrer from
 * one counts as the fediverse without a query per page view.
 */
export const FOLLOWER_HOSTS_REFRESH_MS = 5 * 60_000;
/** Referrers whose source is remembered: readers arriving from one place repeat. */
const REFERRERS_REMEMBERED = 1_000;

/**
 * A view's source (./sources.ts) as the counting reads it per request: the followers' servers
 * from memory, read again by the counting loop, and each referrer's source once, so a view
 * from the same place as the last ones parses no URL.
 */
export function createSourceReader(db: Database, config: Config, now: () => Date) {
  const siteHost = config.publicUrl.host.toLowerCase();
  /** The servers of the site's followers, as sources name hosts (no port, no `www.`). */
  let followerHosts: ReadonlySet<string> = new Set();
  let readAt = Number.NEGATIVE_INFINITY;
  const byReferrer = new Map<string, Source | undefined>();

  async function refresh(): Promise<void> {
    readAt = now().getTime();
    byReferrer.clear();
    if (!config.fediverse.enabled) {
      followerHosts = new Set();
      return;
    }
    const rows = await db
      .selectDistinct({ server: remoteAccounts.server })
      .from(remoteAccounts)
      .innerJoin(fediverseFollowers, eq(fediverseFollowers.actorId, remoteAccounts.actorUrl));
    const hosts = new Set<string>();
    for (const { server } of rows) {
      const name = cleanName(server.replace(/:\d+$/, ""));
      if (name) hosts.add(name);
    }
    followerHosts = hosts;
    byReferrer.clear();
  }

  return {
    refresh,
    async refreshWhenDue(): Promise<void> {
      if (now().getTime() - readAt >= FOLLOWER_HOSTS_REFRESH_MS) await refresh();
    },
    /** Where a view came from; undefined for a reader moving between this site's pages. */
    of(referrer: string | undefined, utmSource: string | null): Source | undefined {
      if (utmSource !== null || !referrer) {
        return sourceOf(referrer, utmSource, siteHost, followerHosts);
      }
      if (!byReferrer.has(referrer)) {
        if (byReferrer.size >= REFERRERS_REMEMBERED) byReferrer.clear();
        byReferrer.set(referrer, sourceOf(referrer, null, siteHost, followerHosts));
      }
      return byReferrer.get(referrer);
    },
  };
}
