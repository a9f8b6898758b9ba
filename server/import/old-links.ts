import { eq, isNull } from "drizzle-orm";
import * as paths from "../../common/paths.ts";
import type { ImportRedirect } from "../../common/schemas/import.ts";
import { redirectKey } from "../../common/site-pages.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ContentChanges } from "../core/content-changes.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { notFound } from "../core/errors.ts";
import { importRedirects, poems } from "../db/schema.ts";

/**
 * The old links (docs/product/import.md): each imported poem's addresses on its old site answer
 * a 301 to its page here; the poet lists them and may delete one.
 */
export function oldLinks({
  db,
  contentChanges,
}: Pick<ServiceDeps, "db"> & { contentChanges: ContentChanges }) {
  /** The old links, read once per content change: a page 404 looks here, never the database. */
  let redirectMap: Promise<Map<string, string>> | undefined;
  contentChanges.onChange(() => {
    redirectMap = undefined;
  });
  async function loadRedirects(): Promise<Map<string, string>> {
    const rows = await db
      .select({ path: importRedirects.path, slug: poems.slug })
      .from(importRedirects)
      .innerJoin(poems, eq(poems.id, importRedirects.poemId))
      .where(isNull(poems.deletedAt));
    return new Map(rows.map((row) => [row.path, paths.poem(row.slug)]));
  }

  return {
    async listRedirects(_admin: AdminActor): Promise<ImportRedirect[]> {
      return db
        .select({
          id: importRedirects.id,
          path: importRedirects.path,
          poemSlug: poems.slug,
          poemTitle: poems.title,
        })
        .from(importRedirects)
        .innerJoin(poems, eq(poems.id, importRedirects.poemId))
        .orderBy(importRedirects.path);
    },

    async deleteRedirect(_admin: AdminActor, id: number): Promise<void> {
      const deleted = await db
        .delete(importRedirects)
        .where(eq(importRedirects.id, id))
        .returning({ id: importRedirects.id });
      if (deleted.length === 0) throw notFound("Redirect not found");
      await contentChanges.announce();
    },

    /**
     * Where an old address now lives (`/poetry/{slug}`), for a request this site has no page
     * for, or for the home page with WordPress's `?p=`. Read from memory.
     */
    async redirectFor(path: string, search: string): Promise<string | undefined> {
      const postId = path === "/" ? new URLSearchParams(search).get("p") : null;
      const key = postId === null ? redirectKey(path) : redirectKey(`/?p=${postId}`);
      if (key === undefined) return undefined;
      redirectMap ??= loadRedirects().catch((error: unknown) => {
        redirectMap = undefined;
        throw error;
      });
      return (await redirectMap).get(key);
    },
  };
}
