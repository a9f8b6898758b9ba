import fs from "node:fs/promises";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import {
  IMPORT_MAX_BYTES,
  type ImportJob,
  type ImportPreview,
} from "../../common/schemas/import.ts";
import type { Config } from "../config.ts";
import { isServiceError } from "../core/errors.ts";
import type { Backup, RestorePlan } from "../db/backup.ts";
import type { DatabaseHandle } from "../db/client.ts";
import { IMPORT_SOURCES, type ImportSource } from "../import/types.ts";
import type { Logger } from "../logger.ts";
import type { Services } from "../services.ts";

export interface CommandContext {
  config: Config;
  handle: DatabaseHandle;
  logger: Logger;
  services: Services;
}

export class UsageError extends Error {
  override name = "UsageError";
}

export interface Command {
  usage: string;
  description: string;
  /** Its argument is a file path, made absolute where the operator typed it. */
  takesFile?: boolean;
  /** Runs the command and returns what it prints. */
  run(context: CommandContext, args: string[]): Promise<string>;
}

/**
 * What the database commands run is imported when one runs: most calls (a login link to a running
 * server) only hand their command over the control socket, and these modules would cost each
 * call most of its start-up.
 */
const backups = () => import("../db/backup.ts");

/** Writes a file that must not exist yet: an export or backup never overwrites another. */
async function writeNewFile(file: string, data: string | Buffer) {
  await fs.writeFile(file, data, { flag: "wx" }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "EEXIST") throw new UsageError(`${file} exists; choose a new file name`);
    throw error;
  });
}

async function readBackupFile(file: string, decode: (bytes: Buffer) => Buffer): Promise<Backup> {
  try {
    return JSON.parse(decode(await fs.readFile(file)).toString("utf8")) as Backup;
  } catch (error) {
    throw new UsageError(`${file} is not a readable backup: ${(error as Error).message}`);
  }
}

/** Whether FILE is this site's own content export (`npm run cli -- export`), not another platform's. */
export async function isContentExport(file: string): Promise<boolean> {
  if (!file.endsWith(".json")) return false;
  try {
    const parsed = JSON.parse(await fs.readFile(file, "utf8")) as { scope?: unknown };
    return parsed.scope === "content";
  } catch {
    return false;
  }
}

export function importFlags(flags: string[], usage: string) {
  const choices = {
    source: undefined as ImportSource | undefined,
    dryRun: false,
    fetchCovers: true,
    subscribersConsented: false,
  };
  for (let at = 0; at < flags.length; at++) {
    const flag = flags[at];
    if (flag === "--dry-run") choices.dryRun = true;
    else if (flag === "--keep-cover-urls") choices.fetchCovers = false;
    else if (flag === "--subscribers-consented") choices.subscribersConsented = true;
    else if (flag === "--source") {
      const value = flags[++at];
      if (!IMPORT_SOURCES.includes(value as ImportSource)) {
        throw new UsageError("--source must be substack, ghost, wordpress or files");
      }
      choices.source = value as ImportSource;
    } else throw new UsageError(`usage: ${usage}`);
  }
  return choices;
}

/** What the CLI prints for an import: what it found, what it skipped and why, what it did. */
function describeImport(
  preview: ImportPreview,
  job: ImportJob | null,
  choices: { dryRun: boolean; subscribersConsented: boolean },
): string {
  const lines = [
    `found ${preview.poems.length} poems in ${preview.job.fileName} (${preview.job.source}):`,
  ];
  for (const poem of preview.poems) {
    const date = poem.publishAt ? ` ${poem.publishAt.toISOString().slice(0, 10)}` : "";
    const clash = poem.clashedWith ? ` (${poem.clashedWith} is taken)` : "";
    const already = poem.changed
      ? " [already imported, changed there since: update it from the import page]"
      : poem.alreadyImported
        ? " [already imported]"
        : "";
    lines.push(`  ${poem.title} → /poetry/${poem.slug}${clash}, ${poem.state}${date}${already}`);
    for (const note of poem.notes) lines.push(`    note: ${note}`);
    for (const path of poem.oldPaths) lines.push(`    redirects: ${path}`);
    for (const { path, reason } of poem.notRedirected) {
      lines.push(`    not redirected: ${path} (${reason})`);
    }
  }
  for (const item of preview.skipped)
    lines.push(`skipped ${item.title || item.sourceId}: ${item.reason}`);
  const { subscribers } = preview;
  lines.push(
    `found ${subscribers.found} subscribers: ${subscribers.receiving} receiving email, ${subscribers.new} new here`,
  );
  for (const skipped of subscribers.skipped) {
    lines.push(`skipped ${skipped.count} subscribers: ${skipped.reason}`);
  }
  if (subscribers.receiving > 0 && !choices.subscribersConsented) {
    lines.push(
      "subscribers listed, not imported (add --subscribers-consented once they consented there)",
    );
  }
  if (!job) {
    lines.push("dry run: nothing stored");
    return lines.join("\n");
  }
  if (job.state === "failed") throw new Error(job.error ?? "the import failed");
  lines.push(
    `done: ${job.poemsImported} poems imported, ${job.poemsAlreadyImported} already here; ${job.subscribersImported} subscribers imported, ${job.subscribersExisting} already subscribed`,
  );
  for (const note of job.notes) lines.push(`note: ${note}`);
  return lines.join("\n");
}

const RESTORE_FLAGS = new Set(["--dry-run", "--replace"]);

const occupiedTables = (plan: RestorePlan) =>
  plan.tables
    .filter((table) => table.rowsNow > 0)
    .map((table) => `${table.table} ${table.rowsNow}`)
    .join(", ");

/** `restore --dry-run`: each table the restore writes, the rows it holds and the rows it gets. */
function describeRestorePlan(file: string, plan: RestorePlan): string {
  const lines = [`dry run: restoring ${file} would write these tables (rows now → rows after):`];
  for (const table of plan.tables) {
    const change = table.rowsNow > 0 ? " (replaced)" : "";
    lines.push(`  ${table.table}: ${table.rowsNow} → ${table.rowsInBackup}${change}`);
  }
  lines.push(
    plan.hasContent
      ? "the site has content: the restore needs --replace, and backs up what it replaces first"
      : "the site has no content: the restore needs no --replace",
    "nothing written",
  );
  return lines.join("\n");
}

/**
 * Before a restore replaces a site's content, a backup of everything it holds, in DATA_DIR
 * (`backups/replaced-{time}.json.gz`): a restore into the wrong site can be undone.
 */
async function backUpBeforeReplacing(context: CommandContext): Promise<string> {
  const { createBackup } = await backups();
  const folder = path.join(context.config.dataDir, "backups");
  await fs.mkdir(folder, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const file = path.join(folder, `replaced-${stamp}.json.gz`);
  await writeNewFile(file, gzipSync(JSON.stringify(await createBackup(context.handle.db))));
  return file;
}

function expectArgs(args: string[], count: number, usage: string) {
  if (args.length !== count) throw new UsageError(`usage: ${usage}`);
}

/**
 * The operator's database commands. The CLI runs them itself, or hands them to the running
 * server over its control socket when that server holds the embedded database.
 */
export const commands: Record<string, Command> = {
  migrate: {
    usage: "migrate",
    description: "apply the committed migrations",
    async run(context, args) {
      expectArgs(args, 0, this.usage);
      await context.handle.migrate();
      return "migrations applied";
    },
  },
  "seed-demo": {
    usage: "seed-demo",
    description: "fill an empty database with the demo poems, embers, tags and book",
    async run(context, args) {
      expectArgs(args, 0, this.usage);
      await context.handle.migrate();
      const { seedDemo } = await import("../db/seed-demo.ts");
      const seeded = await seedDemo(context.handle.db, context.config, context.logger);
      if (seeded) await context.services.contentChanges.announce();
      return seeded ? "demo content seeded" : "the database already has poems; nothing seeded";
    },
  },
  backup: {
    usage: "backup FILE",
    description:
      "write a consistent backup of every table to FILE (gzipped JSON), while the site runs",
    takesFile: true,
    async run(context, args) {
      expectArgs(args, 1, this.usage);
      const [file = ""] = args;
      const { createBackup, describeBackup } = await backups();
      const backup = await createBackup(context.handle.db);
      await writeNewFile(file, gzipSync(JSON.stringify(backup)));
      return `backup written to ${file}: ${describeBackup(backup)}`;
    },
  },
  restore: {
    usage: "restore FILE [--dry-run] [--replace]",
    description:
      "load a backup FILE into an empty database; --dry-run says what it would replace, --replace replaces a site's content after backing it up to DATA_DIR",
    takesFile: true,
    async run(context, args) {
      const [file = "", ...flags] = args;
      const dryRun = flags.includes("--dry-run");
      const replace = flags.includes("--replace");
      if (!file || file.startsWith("--") || flags.some((flag) => !RESTORE_FLAGS.has(flag))) {
        throw new UsageError(`usage: ${this.usage}`);
      }
      const backup = await readBackupFile(file, gunzipSync);
      const { describeBackup, planRestore, restoreBackup } = await backups();
      await context.handle.migrate();
      const plan = await planRestore(context.handle.db, backup);
      if (dryRun) return describeRestorePlan(file, plan);
      if (plan.hasContent && !replace) {
        throw new Error(
          `the database is not empty (${occupiedTables(plan)}); add --replace to replace it (a backup of what it holds is written first), or --dry-run to see what would change`,
        );
      }
      const kept = plan.hasContent ? await backUpBeforeReplacing(context) : null;
      await restoreBackup(context.handle.db, backup, { replace: plan.hasContent });
      await context.services.contentChanges.announce();
      const restored = `restored from ${file}: ${describeBackup(backup)}`;
      return kept ? `${restored}\nwhat it replaced is backed up in ${kept}` : restored;
    },
  },
  export: {
    usage: "export FILE",
    description: "write the content (poems, tags, embers, books, subscribers) to FILE as JSON",
    takesFile: true,
    async run(context, args) {
      expectArgs(args, 1, this.usage);
      const [file = ""] = args;
      const { createBackup, describeBackup } = await backups();
      const content = await createBackup(context.handle.db, "content");
      await writeNewFile(file, `${JSON.stringify(content, null, 2)}\n`);
      return `content exported to ${file}: ${describeBackup(content)}`;
    },
  },
  import: {
    usage:
      "import FILE [--source substack|ghost|wordpress|files] [--dry-run] [--keep-cover-urls] [--subscribers-consented]",
    description:
      "bring poems (and, with --subscribers-consented, readers) from another platform's export FILE (a zip, JSON, CSV, WXR or folder), or load this site's own content export into a database with no content yet",
    takesFile: true,
    async run(context, args) {
      const [file = "", ...flags] = args;
      if (!file || file.startsWith("--")) throw new UsageError(`usage: ${this.usage}`);
      const choices = importFlags(flags, this.usage);
      const stat = await fs.stat(file).catch(() => {
        throw new UsageError(`${file}: no such file or folder`);
      });
      if (!choices.source && stat.isFile() && (await isContentExport(file))) {
        const content = await readBackupFile(file, (bytes) => bytes);
        const { describeBackup, restoreBackup } = await backups();
        await context.handle.migrate();
        await restoreBackup(context.handle.db, content);
        await context.services.contentChanges.announce();
        return `imported from ${file}: ${describeBackup(content)}`;
      }
      if (stat.isFile() && stat.size > IMPORT_MAX_BYTES) {
        throw new UsageError(
          `${path.basename(file)} is over the ${IMPORT_MAX_BYTES / 1024 / 1024} MB limit for an import`,
        );
      }
      const input = stat.isDirectory()
        ? { directory: file }
        : { fileName: path.basename(file), bytes: new Uint8Array(await fs.readFile(file)) };
      try {
        const { preview, job } = await context.services.imports.importAsOperator(
          input,
          choices.source,
          choices,
        );
        return describeImport(preview, job, choices);
      } catch (error) {
        // A file the parsers refuse is the operator's to fix: one line, naming the file and line.
        if (isServiceError(error) && (error.status === 400 || error.status === 413)) {
          throw new UsageError(error.message);
        }
        throw error;
      }
    },
  },
  "seed-load": {
    usage: "seed-load [--poems N] [--whispers N] [--echoes N] [--insight-days N]",
    description:
      "add generated poems, whispers, echoes and days of counts for scale tests (defaults 10000, 100000, 1000000, 365)",
    async run(context, args) {
      const size = { poems: 10_000, whispers: 100_000, echoes: 1_000_000, insightDays: 365 };
      for (let at = 0; at < args.length; at += 2) {
        const flag = args[at]?.replace(/^--/, "");
        const name = flag === "insight-days" ? "insightDays" : flag;
        const value = Number(args[at + 1]);
        if (
          !(name === "poems" || name === "whispers" || name === "echoes" || name === "insightDays")
        ) {
          throw new UsageError(`usage: ${this.usage}`);
        }
        if (!Number.isInteger(value) || value < 0 || value > 10_000_000) {
          throw new UsageError(`--${flag} needs a whole number from 0 to 10000000`);
        }
        size[name] = value;
      }
      const { seedLoad } = await import("../db/seed-load.ts");
      const report = await seedLoad(context.handle.db, size);
      await context.services.contentChanges.announce();
      return report;
    },
  },
  "login-link": {
    usage: "login-link EMAIL [--admin]",
    description: "print a one-time sign-in URL for EMAIL (15 minutes; --admin grants ADMIN)",
    async run(context, args) {
      const admin = args.includes("--admin");
      const rest = args.filter((arg) => arg !== "--admin");
      const [email] = rest;
      if (rest.length !== 1 || !email || email.startsWith("-"))
        throw new UsageError(`usage: ${this.usage}`);
      return context.services.accounts.createLoginLink(email, { admin });
    },
  },
  "user:role": {
    usage: "user:role EMAIL ADMIN|USER",
    description: "change a user's role (their sessions end)",
    async run(context, args) {
      expectArgs(args, 2, this.usage);
      const [email, role] = args as [string, string];
      if (role !== "ADMIN" && role !== "USER") throw new UsageError(`usage: ${this.usage}`);
      const found = await context.services.accounts.setRole(email, role);
      if (!found) throw new Error(`no user with the email ${email}`);
      return `${email.trim().toLowerCase()} is now ${role}`;
    },
  },
};

export function helpText(): string {
  const rows = Object.values(commands).map(
    (command) => `  ${command.usage.padEnd(32)} ${command.description}`,
  );
  return ["usage: npm run cli -- <command> [arguments]", "", "commands:", ...rows].join("\n");
}
