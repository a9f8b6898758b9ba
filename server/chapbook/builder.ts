import type { ContentChanges } from "../core/content-changes.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { createBackgroundLoop } from "../jobs/loop.ts";
import type { SiteSettingsService } from "../settings/site-settings.ts";
import type { ReadStoredObject } from "./build-content.ts";
import { build } from "./build-files.ts";
import { buildClaims, queueChanged } from "./build-queue.ts";
import type { ChapbookService } from "./chapbooks.ts";
import { renderChapbook } from "./render.ts";

export type { ReadStoredObject } from "./build-content.ts";

export interface ChapbookBuilderOptions {
  /** How long a build may hold its claim before another instance takes it over. */
  leaseMs: number;
  pollMs: number;
  /** Makes the files; the worker thread's by default, a test's own to hold a build open. */
  render: typeof renderChapbook;
}

const DEFAULTS: ChapbookBuilderOptions = {
  leaseMs: 5 * 60_000,
  pollMs: 30_000,
  render: renderChapbook,
};

/**
 * Makes chapbooks' files in the background (docs/decisions/068-chapbook-builds.md): a claimed
 * build at a time, on every instance (a lease, as every queue's: server/jobs/leased-rows.ts),
 * laid out in a worker thread. After any content change, a chapbook whose poems changed since
 * its files were made (its fingerprint differs) is queued again; nothing else is.
 */
export function createChapbookBuilder(
  deps: ServiceDeps & {
    chapbooks: ChapbookService;
    contentChanges: ContentChanges;
    siteSettings: SiteSettingsService;
    readStoredObject?: ReadStoredObject;
    options?: Partial<ChapbookBuilderOptions>;
  },
) {
  const { db, logger } = deps;
  const options = { ...DEFAULTS, ...deps.options };
  let isRecheckDue = true;
  const claims = buildClaims(db, options.leaseMs / 1000);

  const loop = createBackgroundLoop({
    name: "chapbook builder",
    pollMs: options.pollMs,
    logger,
    async step() {
      if (isRecheckDue) {
        isRecheckDue = false;
        await queueChanged(db);
      }
      const claimed = await claims.next();
      if (!claimed) return 0;
      await build(deps, options.render, claims, claimed);
      return 1;
    },
  });
  deps.contentChanges.onChange(() => {
    isRecheckDue = true;
    loop.wake();
  });
  deps.chapbooks.whenQueued(() => loop.wake());

  return {
    loop: { ...loop, releaseOwnClaims: claims.releaseOwnClaims },
    /** Builds what is queued now, to the end (tests, the CLI). */
    async buildQueued(): Promise<number> {
      let built = 0;
      if (isRecheckDue) {
        isRecheckDue = false;
        await queueChanged(db);
      }
      for (let claimed = await claims.next(); claimed; claimed = await claims.next()) {
        await build(deps, options.render, claims, claimed);
        built += 1;
      }
      return built;
    },
  };
}
