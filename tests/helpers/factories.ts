import { inArray } from "drizzle-orm";
import { dayToDate } from "../../common/dates.ts";
import type { Database } from "../../server/db/client.ts";
import { embers, emberTags, poems, poemTags, subscriptions, tags } from "../../server/db/schema.ts";

let sequence = 0;
const next = () => ++sequence;

/**
 * The clock of the test app each database belongs to: what the factories write is dated by it, so
 * a test that pins the services' clock never meets rows dated by the real day
 * (docs/decisions/048-one-clock-per-test.md).
 */
const clocks = new WeakMap<Database, () => Date>();

/** Dates every row the factories write into `db` by `now` (createTestApp calls it with its clock). */
export function dateRowsBy(db: Database, now: () => Date) {
  clocks.set(db, now);
}

const nowOf = (db: Database) => clocks.get(db)?.() ?? new Date();

/** Tags by name, created when missing. */
export async function ensureTags(db: Database, names: string[]) {
  if (names.length === 0) return [];
  await db
    .insert(tags)
    .values(names.map((name) => ({ name })))
    .onConflictDoNothing();
  return db.select().from(tags).where(inArray(tags.name, names));
}

export async function createPoem(
  db: Database,
  fields: Partial<typeof poems.$inferInsert> & { tagNames?: string[] } = {},
) {
  const n = next();
  const { tagNames = [], ...values } = fields;
  const now = nowOf(db);
  const [poem] = await db
    .insert(poems)
    .values({
      publishAt: now,
      createdAt: now,
      updatedAt: now,
      title: `Poem ${n}`,
      slug: `poem-${n}`,
      stanzas: ["first line / second line / third line", "another / stanza"],
      ...values,
    })
    .returning();
  if (!poem) throw new Error("poem insert failed");
  const tagRows = await ensureTags(db, tagNames);
  if (tagRows.length > 0) {
    await db.insert(poemTags).values(tagRows.map((tag) => ({ poemId: poem.id, tagId: tag.id })));
  }
  return poem;
}

export async function createEmber(
  db: Database,
  fields: {
    day: string;
    text?: string;
    isFeatured?: boolean;
    featuredAt?: Date;
    tagNames?: string[];
  },
) {
  const now = nowOf(db);
  const [ember] = await db
    .insert(embers)
    .values({
      text: fields.text ?? `Ember for ${fields.day}`,
      date: dayToDate(fields.day),
      isFeatured: fields.isFeatured ?? false,
      featuredAt: fields.featuredAt ?? null,
      createdAt: now,
    })
    .returning();
  if (!ember) throw new Error("ember insert failed");
  const tagRows = await ensureTags(db, fields.tagNames ?? []);
  if (tagRows.length > 0) {
    await db.insert(emberTags).values(tagRows.map((tag) => ({ emberId: ember.id, tagId: tag.id })));
  }
  return ember;
}

/** Subscriptions for the given addresses in one statement: verified unless told otherwise. */
export async function createSubscribers(
  db: Database,
  emails: string[],
  fields: Partial<typeof subscriptions.$inferInsert> = {},
) {
  return db
    .insert(subscriptions)
    .values(
      emails.map((email) => ({
        email,
        verified: true,
        verifiedAt: nowOf(db),
        ...fields,
      })),
    )
    .returning();
}
