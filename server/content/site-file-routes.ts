import { mounts } from "../../common/mounts.ts";
import * as otherRoutes from "../../common/other-routes.ts";
import * as pages from "../../common/pages.ts";
import * as paths from "../../common/paths.ts";
import { tagSlug } from "../../common/slug.ts";
import { stanzaLines, stanzaText } from "../../common/stanza.ts";
import type { Config } from "../config.ts";
import { escapeMarkup as escapeXml } from "../escape.ts";
import type { GuestVoiceService } from "../guests/guest-voices.ts";
import { sharedRead } from "../http/cache-policy.ts";
import type { AppEnv } from "../http/env.ts";
import { routesAt } from "../http/routes.ts";
import type { SiteSettingsService } from "../settings/site-settings.ts";
import type { SitemapService } from "./sitemap.ts";

const FEED_SIZE = 30;
const CACHE = "public, max-age=300";
const STATIC_PAGES = [
  pages.home,
  pages.poetry,
  pages.ember,
  pages.emberArchive,
  pages.books,
  pages.guestVoices,
  pages.contribute,
];

/** /robots.txt, /sitemap.xml and the Atom feed of poems /feed.xml. */
export function siteFileRoutes(
  services: {
    sitemap: SitemapService;
    guestVoices: GuestVoiceService;
    siteSettings: SiteSettingsService;
  },
  config: Config,
) {
  const origin = config.publicUrl.origin;
  const absolute = (path: string) => `${origin}${path}`;
  return routesAt<AppEnv>(pages.home)
    .route(otherRoutes.robotsTxt, (c) => {
      c.header("Cache-Control", CACHE);
      return c.text(
        [
          "User-agent: *",
          `Allow: ${pages.home}`,
          `Disallow: ${pages.admin}`,
          `Disallow: ${mounts.api}/`,
          `Disallow: ${pages.login}`,
          `Sitemap: ${absolute(otherRoutes.sitemap.path)}`,
          "",
        ].join("\n"),
      );
    })
    .route(otherRoutes.sitemap, sharedRead, async (c) => {
      const { poems, tagNames, books } = await services.sitemap.listEntries();
      const guestVoices = await services.guestVoices.listShown();
      const url = (path: string, lastmod?: Date) =>
        `  <url><loc>${escapeXml(absolute(path))}</loc>${lastmod ? `<lastmod>${lastmod.toISOString().slice(0, 10)}</lastmod>` : ""}</url>`;
      const urls = [
        ...STATIC_PAGES.map((path) => url(path)),
        ...poems.map((poem) => url(paths.poem(poem.slug), poem.updatedAt)),
        ...tagNames.map((name) => url(paths.theme(tagSlug(name)))),
        ...guestVoices.map((voice) => url(paths.guestVoice(voice.slug))),
        ...books.map((book) => url(paths.bookPreview(book.slug), book.updatedAt)),
      ];
      c.header("Content-Type", "application/xml; charset=utf-8");
      c.header("Cache-Control", CACHE);
      return c.body(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`,
      );
    })
    .route(otherRoutes.webManifest, sharedRead, async (c) => {
      const site = await services.siteSettings.identity();
      c.header("Content-Type", "application/manifest+json; charset=utf-8");
      c.header("Cache-Control", CACHE);
      return c.body(
        JSON.stringify({
          name: site.name,
          short_name: site.name,
          start_url: pages.home,
          display: "browser",
          background_color: "#fbf8f3",
          theme_color: "#fbf8f3",
          icons: [{ src: "/favicon.svg", sizes: "any", type: "image/svg+xml" }],
        }),
      );
    })
    .route(otherRoutes.feed, sharedRead, async (c) => {
      const poems = (await services.sitemap.listEntries()).poems.slice(0, FEED_SIZE);
      // The feed changed when its latest entry did: a new poem, or an edit to an old one.
      const updated = new Date(
        Math.max(0, ...poems.map((poem) => poem.updatedAt.getTime())),
      ).toISOString();
      const site = await services.siteSettings.identity();
      const entries = poems.map((poem) => {
        const link = absolute(paths.poem(poem.slug));
        const content = poem.stanzas.map((stanza) => stanzaLines(stanza).join("\n")).join("\n\n");
        return [
          "  <entry>",
          `    <title>${escapeXml(poem.title)}</title>`,
          `    <link href="${escapeXml(link)}"/>`,
          `    <id>${escapeXml(link)}</id>`,
          `    <published>${poem.publishAt.toISOString()}</published>`,
          `    <updated>${poem.updatedAt.toISOString()}</updated>`,
          `    <summary>${escapeXml(stanzaText(poem.stanzas[0] ?? ""))}</summary>`,
          `    <content type="text">${escapeXml(content)}</content>`,
          "  </entry>",
        ].join("\n");
      });
      c.header("Content-Type", "application/atom+xml; charset=utf-8");
      c.header("Cache-Control", CACHE);
      return c.body(
        [
          '<?xml version="1.0" encoding="UTF-8"?>',
          '<feed xmlns="http://www.w3.org/2005/Atom">',
          `  <title>${escapeXml(site.name)}</title>`,
          `  <link href="${escapeXml(absolute(pages.home))}"/>`,
          `  <link rel="self" href="${escapeXml(absolute(otherRoutes.feed.path))}"/>`,
          `  <id>${escapeXml(absolute(pages.home))}</id>`,
          `  <updated>${updated}</updated>`,
          `  <author><name>${escapeXml(site.poetName ?? site.name)}</name></author>`,
          ...entries,
          "</feed>",
          "",
        ].join("\n"),
      );
    }).router;
}
