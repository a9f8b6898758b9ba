import { and, eq, ne, sql } from "drizzle-orm";
import type { TagInput } from "../../common/schemas/admin.ts";
import type { TagRef } from "../../common/schemas/poems.ts";
import type { AdminActor } from "../core/actor.ts";
import { conflict, notFound } from "../core/errors.ts";
import type { Transaction } from "../db/client.ts";
import { tags } from "../db/schema.ts";
import type { ContentAdminDeps, ContentWrites } from "./content-writes.ts";

const TAG_TAKEN = "A tag with this name already exists";

/** Tag names are unique ignoring case, since "Night" and "night" would share a theme page. */
async function requireFreeTagName(tx: Transaction, name: string, exceptId?: number) {
  const [taken] = await tx
    .select({ id: tags.id })
    .from(tags)
    .where(
      and(
        sql`lower(${tags.name}) = lower(${name})`,
        exceptId === undefined ? undefined : ne(tags.id, exceptId),
      ),
    );
  if (taken) throw conflict(TAG_TAKEN);
}

/** The tags the poet gives poems and embers, each a theme page: create, rename, delete. */
export function tagWrites({ db }: Pick<ContentAdminDeps, "db">, { writeContent }: ContentWrites) {
  return {
    async createTag(_admin: AdminActor, input: TagInput): Promise<TagRef> {
      return writeContent(
        () =>
          db.transaction(async (tx) => {
            await requireFreeTagName(tx, input.name);
            const [tag] = await tx
              .insert(tags)
              .values({ name: input.name })
              .returning({ id: tags.id, name: tags.name });
            if (!tag) throw new Error("tag insert returned nothing");
            return tag;
          }),
        TAG_TAKEN,
      );
    },

    async updateTag(_admin: AdminActor, id: number, input: TagInput): Promise<TagRef> {
      return writeContent(
        () =>
          db.transaction(async (tx) => {
            await requireFreeTagName(tx, input.name, id);
            const [tag] = await tx
              .update(tags)
              .set({ name: input.name, isSample: false })
              .where(eq(tags.id, id))
              .returning({ id: tags.id, name: tags.name });
            if (!tag) throw notFound("Tag not found");
            return tag;
          }),
        TAG_TAKEN,
      );
    },

    /** Its links to poems and embers go with it; the poems and embers stay. */
    async deleteTag(_admin: AdminActor, id: number): Promise<void> {
      await writeContent(async () => {
        const deleted = await db.delete(tags).where(eq(tags.id, id)).returning({ id: tags.id });
        if (deleted.length === 0) throw notFound("Tag not found");
      });
    },
  };
}
