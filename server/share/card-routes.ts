import { mounts } from "../../common/mounts.ts";
import * as otherRoutes from "../../common/other-routes.ts";
import { clampStanzaIndex, stanzaLines } from "../../common/stanza.ts";
import type { PoemService } from "../content/poems.ts";
import type { AppEnv } from "../http/env.ts";
import { routesAt } from "../http/routes.ts";
import type { SiteSettingsService } from "../settings/site-settings.ts";
import { renderStanzaCard } from "./stanza-card.ts";

/** Rendered cards kept in memory, least recently used dropped first (~30-110 KB each). */
const CACHE_ENTRIES = 200;

/**
 * Open Graph images: GET /og/stanza/{slug}/{index}.png, a 1200x630 PNG of one stanza. The index
 * is 0-based and held within the poem's stanzas; an unknown slug is a JSON 404.
 */
export function ogRoutes(services: { poems: PoemService; siteSettings: SiteSettingsService }) {
  // Promises, so that concurrent requests for one card share a single render.
  const cache = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

  function cardFor(
    key: string,
    render: () => Promise<Uint8Array<ArrayBuffer>>,
  ): Promise<Uint8Array<ArrayBuffer>> {
    const cached = cache.get(key);
    if (cached) {
      cache.delete(key);
      cache.set(key, cached);
      return cached;
    }
    const rendering = render();
    cache.set(key, rendering);
    rendering.catch(() => {
      if (cache.get(key) === rendering) cache.delete(key);
    });
    while (cache.size > CACHE_ENTRIES) {
      const oldest = cache.keys().next().value;
      if (oldest === undefined) break;
      cache.delete(oldest);
    }
    return rendering;
  }

  return routesAt<AppEnv>(mounts.cards).route(otherRoutes.stanzaCard, async (c) => {
    // The card is public: link previews show only what any reader may see.
    const poem = await services.poems.getPoem("anonymous", c.req.param("slug"));
    const requested = c.req.param("file").slice(0, -".png".length);
    const index = clampStanzaIndex(requested, poem.stanzas.length);
    const { name: siteName } = await services.siteSettings.identity();
    // The site's name is on the card: a new title is a new card.
    const key = `${poem.slug}\u0000${index}\u0000${poem.updatedAt.getTime()}\u0000${siteName}`;
    const png = await cardFor(key, () =>
      renderStanzaCard({
        lines: stanzaLines(poem.stanzas[index] ?? ""),
        title: poem.title,
        siteName,
      }),
    );
    return c.body(png, 200, {
      "Content-Type": "image/png",
      "Cache-Control": "public, max-age=86400",
    });
  }).router;
}
