import type { ServiceDeps } from "../core/deps.ts";
import { chapbooks } from "../db/schema.ts";
import { type GatherDeps, gather } from "./build-content.ts";
import { type BuildClaims, type Claimed, fingerprintOf } from "./build-queue.ts";
import type { ChapbookFiles, renderChapbook } from "./render.ts";

/** Progress is written at most this often: it is for the poet's eyes, not a log. */
const PROGRESS_EVERY_MS = 500;

/** Makes a claimed chapbook's files and keeps them in its row, or its failure. */
export async function build(
  deps: GatherDeps & Pick<ServiceDeps, "now">,
  render: typeof renderChapbook,
  claims: BuildClaims,
  claimed: Claimed,
): Promise<void> {
  const { id } = claimed;
  const ours = claims.ours(claimed);
  const { db, logger, now } = deps;
  const builtFrom = await fingerprintOf(db, id);
  const content = await gather(deps, id);
  if (!content) return;
  let lastWrite = 0;
  let files: ChapbookFiles;
  try {
    files = await render(content, (done) => {
      if (Date.now() - lastWrite < PROGRESS_EVERY_MS) return;
      lastWrite = Date.now();
      void db
        .update(chapbooks)
        .set({ buildProgress: done })
        .where(ours)
        .catch(() => {});
    });
  } catch (error) {
    logger.error({ err: error, chapbookId: id }, "a chapbook could not be made");
    await db
      .update(chapbooks)
      .set({
        buildState: "failed",
        buildError: "The files could not be made; see the log",
        claimedBy: null,
        leaseUntil: null,
      })
      .where(ours);
    return;
  }
  await db
    .update(chapbooks)
    .set({
      buildState: "ready",
      buildProgress: content.poems.length,
      pdf: Buffer.from(files.pdf),
      epub: Buffer.from(files.epub),
      builtFrom,
      builtAt: now(),
      claimedBy: null,
      leaseUntil: null,
    })
    .where(ours);
}
