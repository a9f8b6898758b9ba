import { Hono } from "hono";
import { endpoints } from "../../common/endpoints.ts";
import { idInText } from "../../common/schemas/input.ts";
import { stanzaIndexInput } from "../../common/schemas/interactions.ts";
import { answer } from "../http/answer.ts";
import { anonymousRead } from "../http/cache-policy.ts";
import type { AppEnv } from "../http/env.ts";
import { parseInput, readJsonBody } from "../http/json-body.ts";
import type { Services } from "../services/index.ts";
import { SHARED_ECHO_COUNTS_LIFE_MS } from "../services/interactions.ts";

const whisperId = idInText("Whisper not found");

/** Echoes, whispers and the journal (SPEC.md §7). Every rule is in the interaction service. */
export function interactionRoutes(services: Services) {
  const { interactions } = services;
  return new Hono<AppEnv>()
    .post("/poems/:slug/echo", async (c) => {
      const { stanzaIndex } = await readJsonBody(c, endpoints.toggleEcho.body);
      return answer(
        c,
        endpoints.toggleEcho,
        await interactions.toggleEcho(c.get("actor"), c.req.param("slug"), stanzaIndex),
      );
    })
    .get("/poems/:slug/echos", anonymousRead, async (c) => {
      // A signed-in reader's counts are theirs; anonymous readers' are shared for a second
      // (SHARED_ECHO_COUNTS_LIFE_MS), by the page cache too.
      c.header(
        "Cache-Control",
        c.get("actor")
          ? "private, no-store"
          : `public, max-age=0, s-maxage=${SHARED_ECHO_COUNTS_LIFE_MS / 1000}`,
      );
      return answer(
        c,
        endpoints.listEchoCounts,
        await interactions.listEchoCounts(c.get("actor"), c.req.param("slug")),
      );
    })
    .post("/poems/:slug/whispers", async (c) => {
      const { stanzaIndex, body } = await readJsonBody(c, endpoints.createWhisper.body);
      return answer(
        c,
        endpoints.createWhisper,
        await interactions.createWhisper(c.get("actor"), c.req.param("slug"), stanzaIndex, body),
      );
    })
    .get("/poems/:slug/whispers/:stanzaIndex", async (c) => {
      const stanzaIndex = parseInput(stanzaIndexInput, c.req.param("stanzaIndex"));
      return answer(
        c,
        endpoints.listWhispers,
        await interactions.listWhispers(c.get("actor"), c.req.param("slug"), stanzaIndex),
      );
    })
    .delete("/whispers/:id", async (c) => {
      await interactions.deleteWhisper(c.get("actor"), parseInput(whisperId, c.req.param("id")));
      return answer(c, endpoints.deleteWhisper, undefined);
    })
    .post("/journal", async (c) => {
      const { poemSlug, stanzaIndex } = await readJsonBody(c, endpoints.toggleJournalEntry.body);
      return answer(
        c,
        endpoints.toggleJournalEntry,
        await interactions.toggleJournalEntry(c.get("actor"), poemSlug, stanzaIndex),
      );
    })
    .put("/journal", async (c) => {
      const { poemSlug, stanzaIndex } = await readJsonBody(c, endpoints.addJournalEntry.body);
      return answer(
        c,
        endpoints.addJournalEntry,
        await interactions.addJournalEntry(c.get("actor"), poemSlug, stanzaIndex),
      );
    })
    .get("/journal", async (c) => {
      c.header("Cache-Control", "private, no-store");
      return answer(c, endpoints.listJournal, await interactions.listJournal(c.get("actor")));
    })
    .get("/poems/:slug/journal", async (c) => {
      c.header("Cache-Control", "private, no-store");
      return answer(
        c,
        endpoints.listSavedStanzas,
        await interactions.listSavedStanzas(c.get("actor"), c.req.param("slug")),
      );
    });
}
