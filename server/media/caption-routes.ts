import * as otherRoutes from "../../common/other-routes.ts";
import { stanzaLines } from "../../common/stanza.ts";
import { vttTimestamp } from "../../common/stanza-timings.ts";
import type { PoemService } from "../content/poems.ts";
import { isServiceError } from "../core/errors.ts";
import type { AppEnv } from "../http/env.ts";
import { routesAt } from "../http/routes.ts";

/** Cue text: WebVTT reads '<' and '&' as markup, and an arrow would end the cue's timing line. */
const cueText = (line: string) =>
  line.trim().replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/** A poem's reading as WebVTT: one cue per stanza, from its timing to the next one's. */
export function readingCaptions(poem: {
  title: string;
  stanzas: string[];
  stanzaTimings: number[];
  readingDuration: number;
}): string {
  const cues = poem.stanzas.map((stanza, index) => {
    const start = poem.stanzaTimings[index] ?? 0;
    const end = poem.stanzaTimings[index + 1] ?? poem.readingDuration;
    return `s-${index}\n${vttTimestamp(start)} --> ${vttTimestamp(end)}\n${stanzaLines(stanza).map(cueText).join("\n")}`;
  });
  return `WEBVTT - ${cueText(poem.title)}\n\n${cues.join("\n\n")}\n`;
}

/**
 * /poetry/{slug}/reading.vtt (docs/product/chapbook.md): the captions of a poem's reading, for the
 * page's audio element, screen readers and search engines; 404 for a poem without a timed reading.
 */
export function readingCaptionRoutes(services: { poems: PoemService }) {
  return routesAt<AppEnv>("/").route(otherRoutes.readingCaptions, async (c) => {
    const poem = await services.poems
      .getPoem(c.get("audience"), c.req.param("slug"))
      .catch((error: unknown) => {
        if (isServiceError(error) && error.status === 404) return undefined;
        throw error;
      });
    if (!poem?.audioUrl || !poem.stanzaTimings || !poem.readingDuration) {
      return c.text("404 Page Not Found", 404);
    }
    c.header("Content-Type", "text/vtt; charset=utf-8");
    // A draft's captions are the admin's alone: no shared cache keeps them.
    const isShared = c.get("audience") === "anonymous";
    c.header("Cache-Control", isShared ? "public, max-age=300" : "private, no-cache");
    return c.body(
      readingCaptions({
        ...poem,
        stanzaTimings: poem.stanzaTimings,
        readingDuration: poem.readingDuration,
      }),
    );
  }).router;
}
