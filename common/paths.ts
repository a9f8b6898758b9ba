import * as otherRoutes from "./other-routes.ts";
import * as pages from "./pages.ts";
import { pathTo, withQuery } from "./path-builder.ts";

/*
 * The site's addresses, built from their declarations (common/pages.ts, common/other-routes.ts)
 * and read as a whole with `import * as paths` (a bundle then keeps only the builders it calls):
 * pages, mail, the sitemap and feed, the fediverse's object ids, counting and sign-in alike build
 * their links here (docs/decisions/078-every-path-written-once.md).
 */

export const poem = (slug: string) => pathTo(pages.poem, { slug });

/** A stanza on its poem's page: the viewer opens at the fragment (index from 0). */
export const stanza = (slug: string, index: number) => `${poem(slug)}#s-${index}`;

/** A stanza's share address, whose card previews it (index from 0). */
export const sharedStanza = (slug: string, index: number) =>
  withQuery(pathTo(pages.sharePoem, { slug }), { s: index });

export const theme = (slug: string) => pathTo(pages.theme, { slug });

export const bookPreview = (slug: string) => pathTo(pages.bookPreview, { slug });

export const guestVoice = (slug: string) => pathTo(pages.guestVoice, { slug });

export const adminPoemInsights = (slug: string) => pathTo(pages.adminPoemInsights, { slug });

/** The sign-in page: where to return after, or what went wrong. */
export const login = (query: { returnTo?: string; error?: string; sent?: 1 } = {}) =>
  withQuery(pages.login, query);

/** Full-page navigation to sign-in (it remembers where the reader was). */
export const startLogin = (returnTo?: string) => withQuery(otherRoutes.login.path, { returnTo });

export const readingCaptions = (slug: string) => pathTo(otherRoutes.readingCaptions.path, { slug });

/** A stanza's card image (index from 0). */
export const stanzaCard = (slug: string, index: number) =>
  pathTo(otherRoutes.stanzaCard.path, { slug, file: `${index}.png` });

export const chapbookFile = (slug: string, format: "pdf" | "epub") =>
  pathTo(otherRoutes.chapbookFile.path, { file: `${slug}.${format}` });

export const storedImage = (name: string) => pathTo(otherRoutes.storedImage.path, { name });

export const storedAudio = (id: string) => pathTo(otherRoutes.storedAudio.path, { id });

export const digestLink = (token: string) => pathTo(otherRoutes.digestLink.path, { token });
