import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { migrationsFolder } from "../../server/db/client.ts";

const root = path.resolve(import.meta.dirname, "../..");

/*
 * A migrated, empty embedded database, made once per set of migrations and PGlite version and
 * kept in the temp folder. Creating a PGlite cluster runs initdb, about 4 s of CPU; starting from
 * this copy takes well under one, and most test files and test servers start a fresh database.
 */

/** Changes whenever a migration or the PGlite version does, so a stale template is never used. */
function templateKey(): string {
  const hash = createHash("sha256");
  hash.update(
    JSON.parse(
      fs.readFileSync(path.join(root, "node_modules/@electric-sql/pglite/package.json"), "utf8"),
    ).version,
  );
  for (const file of fs.readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
    const full = path.join(migrationsFolder, file);
    if (fs.statSync(full).isFile()) hash.update(file).update(fs.readFileSync(full));
  }
  return hash.digest("hex").slice(0, 16);
}

/** Builds `target` once: in a private folder first, then renamed into place (atomic). */
async function once(target: string, build: (scratch: string) => Promise<void>): Promise<string> {
  if (fs.existsSync(target)) return target;
  const scratch = fs.mkdtempSync(`${target}.building-`);
  try {
    await build(scratch);
    fs.renameSync(scratch, target);
  } catch (error) {
    // Another process finished first: its copy is as good as ours.
    if (!fs.existsSync(target)) throw error;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return target;
}

/** A folder holding a migrated PGlite data directory, to copy into a server's DATA_DIR/pglite. */
export function migratedPgliteDirectory(): Promise<string> {
  return once(path.join(os.tmpdir(), `ev-pglite-${templateKey()}`), async (scratch) => {
    const client = await PGlite.create(scratch);
    await migrate(drizzle(client), { migrationsFolder });
    await client.close();
  });
}

/** The same database as a tarball, for `openDatabase({ kind: "pglite-memory", fromDump })`. */
export async function migratedPgliteDump(): Promise<Blob> {
  const folder = await once(
    path.join(os.tmpdir(), `ev-pglite-dump-${templateKey()}`),
    async (scratch) => {
      const client = await PGlite.create();
      await migrate(drizzle(client), { migrationsFolder });
      const dump = await client.dumpDataDir("none");
      await client.close();
      fs.writeFileSync(path.join(scratch, "data.tar"), Buffer.from(await dump.arrayBuffer()));
    },
  );
  return new Blob([fs.readFileSync(path.join(folder, "data.tar"))]);
}
