import { adminPoemReads } from "./admin-poem-reads.ts";
import { bookWrites } from "./book-writes.ts";
import { type ContentAdminDeps, createContentWrites } from "./content-writes.ts";
import { emberSchedule } from "./ember-schedule.ts";
import { poemVersionHistory } from "./poem-versions.ts";
import { poemWrites } from "./poem-writes.ts";
import { tagWrites } from "./tag-writes.ts";
import { whisperModeration } from "./whisper-moderation.ts";

// The sample content reads the schedule's embers with the admin's columns.
export { scheduledEmberColumns } from "./ember-schedule.ts";

/**
 * The poet's writes from the admin area: poems, embers, books and tags, and whisper
 * moderation, for admins only (AdminActor). Every write is one transaction.
 */
export function createContentAdminService(deps: ContentAdminDeps) {
  const writes = createContentWrites(deps);
  return {
    ...poemWrites(deps, writes),
    ...adminPoemReads(deps),
    ...poemVersionHistory(deps, writes),
    ...emberSchedule(deps, writes),
    ...bookWrites(deps, writes),
    ...tagWrites(deps, writes),
    ...whisperModeration(deps),
  };
}

export type ContentAdminService = ReturnType<typeof createContentAdminService>;
