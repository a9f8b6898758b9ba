import type { ServiceDeps } from "../core/deps.ts";
import type { RateLimiter } from "../core/rate-limit.ts";
import { readerEchoes } from "./echoes.ts";
import { createInteractionMemory, memoryNotices } from "./interaction-memory.ts";
import { cloudJournal } from "./journal.ts";
import { readerWhispers } from "./whispers.ts";

export { SHARED_ECHO_COUNTS_LIFE_MS } from "./interaction-memory.ts";
export { fediverseOrigin } from "./whispers.ts";

/** Echoes, whispers and the cloud journal (docs/product/interactions.md). */
export function createInteractionService(deps: ServiceDeps & { rateLimiter: RateLimiter }) {
  const memory = createInteractionMemory(deps);
  return {
    ...readerEchoes(deps, memory),
    ...memoryNotices(deps, memory),
    ...readerWhispers(deps, memory),
    ...cloudJournal(deps, memory),
  };
}

export type InteractionService = ReturnType<typeof createInteractionService>;
