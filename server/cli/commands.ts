import fs from "node:fs/promises";
import { gunzipSync, gzipSync } from "node:zlib";
import type { Config } from "../config.ts";
import { type Backup, createBackup, describeBackup, restoreBackup } from "../db/backup.ts";
import type { DatabaseHandle } from "../db/client.ts";
import { seedDemo } from "../db/seed-demo.ts";
import { seedLoad } from "../db/seed-load.ts";
import type { Logger } from "../logger.ts";
import type { Services } from "../services/index.ts";

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
      const backup = await createBackup(context.handle.db);
      await writeNewFile(file, gzipSync(JSON.stringify(backup)));
      return `backup written to ${file}: ${describeBackup(backup)}`;
    },
  },
  restore: {
    usage: "restore FILE",
    description: "load a backup FILE into an empty database",
    takesFile: true,
    async run(context, args) {
      expectArgs(args, 1, this.usage);
      const [file = ""] = args;
      const backup = await readBackupFile(file, gunzipSync);
      await context.handle.migrate();
      await restoreBackup(context.handle.db, backup);
      await context.services.contentChanges.announce();
      return `restored from ${file}: ${describeBackup(backup)}`;
    },
  },
  export: {
    usage: "export FILE",
    description: "write the content (poems, tags, embers, books, subscribers) to FILE as JSON",
    takesFile: true,
    async run(context, args) {
      expectArgs(args, 1, this.usage);
      const [file = ""] = args;
      const content = await createBackup(context.handle.db, "content");
      await writeNewFile(file, `${JSON.stringify(content, null, 2)}\n`);
      return `content exported to ${file}: ${describeBackup(content)}`;
    },
  },
  import: {
    usage: "import FILE",
    description: "load an exported FILE into a database with no content yet",
    takesFile: true,
    async run(context, args) {
      expectArgs(args, 1, this.usage);
      const [file = ""] = args;
      const content = await readBackupFile(file, (bytes) => bytes);
      if (content.scope !== "content") throw new UsageError(`${file} is not a content export`);
      await context.handle.migrate();
      await restoreBackup(context.handle.db, content);
      await context.services.contentChanges.announce();
      return `imported from ${file}: ${describeBackup(content)}`;
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
