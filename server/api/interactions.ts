import { Hono } from "hono";
import { z } from "zod";
import {
  echoInput,
  journalInput,
  stanzaIndexInput,
  whisperInput,
} from "../../common/schemas/interactions.ts";
import type { AppEnv } from "../http/env.ts";
import { parseInput, readJsonBody } from "../http/json-body.ts";
import type { Services } from "../services/index.ts";

/** Ids are PostgreSQL integers: nine digits at most, so no id overflows the column type. */
const whisperId = z
  .string()
  .regex(/^\d{1,9}$/, "Whisper not found")
  .transform(Number);

/** Echoes, whispers and the journal (SPEC.md §7). Every rule is in the interaction service. */
export function interactionRoutes(services: Services) {
  const { interactions } = services;
  return new Hono<AppEnv>()
    .post("/poems/:slug/echo", async (c) => {
      const { stanzaIndex } = await readJsonBody(c, echoInput);
      return c.json(
        await interactions.toggleEcho(c.get("actor"), c.req.param("slug"), stanzaIndex),
      );
    })
    .get("/poems/:slug/echos", async (c) => {
      c.header("Cache-Control", "private, no-store");
      return c.json(await interactions.listEchoCounts(c.get("actor"), c.req.param("slug")));
    })
    .post("/poems/:slug/whispers", async (c) => {
      const { stanzaIndex, body } = await readJsonBody(c, whisperInput);
      return c.json(
        await interactions.createWhisper(c.get("actor"), c.req.param("slug"), stanzaIndex, body),
        201,
      );
    })
    .get("/poems/:slug/whispers/:stanzaIndex", async (c) => {
      const stanzaIndex = parseInput(stanzaIndexInput, c.req.param("stanzaIndex"));
      return c.json(
        await interactions.listWhispers(c.get("actor"), c.req.param("slug"), stanzaIndex),
      );
    })
    .delete("/whispers/:id", async (c) => {
      await interactions.deleteWhisper(c.get("actor"), parseInput(whisperId, c.req.param("id")));
      return c.body(null, 204);
    })
    .post("/journal", async (c) => {
      const { poemSlug, stanzaIndex } = await readJsonBody(c, journalInput);
      return c.json(await interactions.toggleJournalEntry(c.get("actor"), poemSlug, stanzaIndex));
    })
    .put("/journal", async (c) => {
      const { poemSlug, stanzaIndex } = await readJsonBody(c, journalInput);
      return c.json(await interactions.addJournalEntry(c.get("actor"), poemSlug, stanzaIndex));
    })
    .get("/journal", async (c) => {
      c.header("Cache-Control", "private, no-store");
      return c.json(await interactions.listJournal(c.get("actor")));
    })
    .get("/poems/:slug/journal", async (c) => {
      c.header("Cache-Control", "private, no-store");
      return c.json(await interactions.listSavedStanzas(c.get("actor"), c.req.param("slug")));
    });
}
