import { endpoints } from "../../common/endpoints.ts";
import { mounts } from "../../common/mounts.ts";
import { anonymousRead } from "../http/cache-policy.ts";
import type { AppEnv } from "../http/env.ts";
import { routesAt } from "../http/routes.ts";
import type { InteractionService } from "./interactions.ts";
import { SHARED_ECHO_COUNTS_LIFE_MS } from "./interactions.ts";

/** Echoes, whispers and the journal (docs/product/api.md). Every rule is in the interaction service. */
export function interactionRoutes({ interactions }: { interactions: InteractionService }) {
  return routesAt<AppEnv>(mounts.api)
    .call(endpoints.toggleEcho, ({ params, body }, c) =>
      interactions.toggleEcho(c.get("actor"), params.slug, body.stanzaIndex),
    )
    .call(endpoints.listEchoCounts, anonymousRead, ({ params }, c) => {
      // A signed-in reader's counts are theirs; anonymous readers' are shared for a second
      // (SHARED_ECHO_COUNTS_LIFE_MS), by the page cache too.
      c.header(
        "Cache-Control",
        c.get("actor")
          ? "private, no-store"
          : `public, max-age=0, s-maxage=${SHARED_ECHO_COUNTS_LIFE_MS / 1000}`,
      );
      return interactions.listEchoCounts(c.get("actor"), params.slug);
    })
    .call(endpoints.createWhisper, ({ params, body }, c) =>
      interactions.createWhisper(c.get("actor"), params.slug, body.stanzaIndex, body.body),
    )
    .call(endpoints.listWhispers, ({ params }, c) =>
      interactions.listWhispers(c.get("actor"), params.slug, params.stanzaIndex),
    )
    .call(endpoints.deleteWhisper, async ({ params }, c) => {
      await interactions.deleteWhisper(c.get("actor"), params.id);
    })
    .call(endpoints.toggleJournalEntry, ({ body }, c) =>
      interactions.toggleJournalEntry(c.get("actor"), body.poemSlug, body.stanzaIndex),
    )
    .call(endpoints.addJournalEntry, ({ body }, c) =>
      interactions.addJournalEntry(c.get("actor"), body.poemSlug, body.stanzaIndex),
    )
    .call(endpoints.listJournal, (_input, c) => {
      c.header("Cache-Control", "private, no-store");
      return interactions.listJournal(c.get("actor"));
    })
    .call(endpoints.listSavedStanzas, ({ params }, c) => {
      c.header("Cache-Control", "private, no-store");
      return interactions.listSavedStanzas(c.get("actor"), params.slug);
    }).router;
}
