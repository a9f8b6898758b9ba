import { sql } from "drizzle-orm";
import { tags } from "../db/schema.ts";
import { type Executor, textSet } from "./identity.ts";

/** The tag ids for these names, creating the missing ones (names unique ignoring case). */
export async function tagIdsFor(tx: Executor, names: string[]): Promise<Map<string, number>> {
  const wanted = [...new Set(names.map((name) => name.trim()).filter(Boolean))];
  const ids = new Map<string, number>();
  if (wanted.length === 0) return ids;
  const lowered = wanted.map((name) => name.toLowerCase());
  const find = () =>
    tx
      .select({ id: tags.id, name: tags.name })
      .from(tags)
      .where(sql`lower(${tags.name}) in ${textSet(lowered)}`);
  const remember = (rows: Array<{ id: number; name: string }>) => {
    for (const row of rows) ids.set(row.name.toLowerCase(), row.id);
  };
  remember(await find());
  const missing = wanted.filter((name) => !ids.has(name.toLowerCase()));
  if (missing.length > 0) {
    await tx
      .insert(tags)
      .values(missing.map((name) => ({ name })))
      .onConflictDoNothing();
    remember(await find());
  }
  return ids;
}
