import { eq } from "drizzle-orm";
import type { ServiceDeps } from "../core/deps.ts";
import { mailRuns } from "../db/schema.ts";
import { digestLinkTargets } from "../mail/digest.ts";
import type { Counting } from "./counting.ts";
import { readDigestClickToken } from "./digest-links.ts";

/** A digest link followed: checked against its run's links, counted, and sent on its way. */
export function digestLinkClicks(deps: ServiceDeps, counting: Counting) {
  const { db, config } = deps;

  /** Each run's content, kept once read: a run's links never change. */
  const runContents = new Map<number, Promise<typeof mailRuns.$inferSelect.content | null>>();
  function runContent(runId: number) {
    const known = runContents.get(runId);
    if (known) return known;
    if (runContents.size > 500) runContents.clear();
    const found = db
      .select({ content: mailRuns.content })
      .from(mailRuns)
      .where(eq(mailRuns.id, runId))
      .then(([row]) => row?.content ?? null);
    runContents.set(runId, found);
    found.catch(() => runContents.delete(runId));
    return found;
  }

  return {
    /**
     * A digest link followed: answers where it leads, or undefined for a token that names no
     * link of a digest. A click counts once a day per address, run and link, and not at all
     * from a reader who asked not to be counted (`address` undefined).
     */
    async followDigestLink(
      secret: string,
      token: string,
      address: string | undefined,
    ): Promise<string | undefined> {
      const named = readDigestClickToken(secret, token);
      if (!named) return undefined;
      const content = await runContent(named.runId);
      if (!content) return undefined;
      const target = digestLinkTargets(content, config.publicUrl.toString())[named.link];
      if (!target) return undefined;
      if (address !== undefined) counting.recordClick({ ...named, url: target }, address);
      const url = new URL(target);
      url.searchParams.set("utm_source", "digest");
      return url.toString();
    },
  };
}
