import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/server.ts";

/**
 * `import FILE --dry-run` beside no server reads the file alone
 * (docs/decisions/061-a-dry-run-reads-the-file-alone.md).
 */
const REAL = path.resolve(import.meta.dirname, "../fixtures/import/real/wordpress");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ev-dry-run-"));
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the CLI's dry run with no server running", () => {
  it("describes a real export without opening the embedded database, and names what it did not check", async () => {
    const { DATABASE_URL: _ignored, ...env } = process.env;
    const dry = await runCli(["import", path.join(REAL, "mg-wp-xml-posts-only.xml"), "--dry-run"], {
      ...env,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
    });
    expect(dry.stderr).toBe("");
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("found 3 poems in mg-wp-xml-posts-only.xml (wordpress):");
    expect(dry.stdout).toContain("  Basic Post, published 2013-06-07");
    expect(dry.stdout).toContain("    redirects: /blog/basic-post.html");
    expect(dry.stdout).toContain(
      "skipped My CPT Post: An item of the kind “customcpt”, not a post",
    );
    expect(dry.stdout).toContain(
      "not checked against this site (its database is not opened for a dry run): poems already imported, slugs already taken, old addresses other poems keep, readers already subscribed",
    );
    // Nothing was opened, so nothing was made.
    expect(fs.readdirSync(dataDir)).toEqual([]);
  }, 120_000);
});
