import { commands } from "../../server/cli/commands.ts";
import { composeProcess } from "../../server/compose.ts";
import { loadConfig } from "../../server/config.ts";
import { sendControlRequest } from "../../server/control/socket.ts";
import { openDatabaseFor } from "../../server/db/open.ts";
import { createLogger } from "../../server/logger.ts";
import type { RunningServer } from "./server.ts";

/** What the instances on one PostgreSQL database share; absent for the embedded database. */
export interface PostgresAccess {
  databaseUrl: string;
  sessionSecret: string;
}

export interface Operator {
  /** Runs one CLI command (`npm run cli -- name ...args`) and returns what it prints. */
  run(name: string, ...args: string[]): Promise<string>;
  close(): Promise<void>;
}

/**
 * The operator CLI's own commands without a process per command (each costs over a second of
 * CPU, too much for dozens of login links): on PostgreSQL they run here on the instances'
 * database, on the embedded database they go over the running server's control socket, exactly
 * as the CLI sends them.
 */
export async function openOperator(
  server: RunningServer,
  postgres?: PostgresAccess,
): Promise<Operator> {
  if (!postgres) {
    return {
      async run(name, ...args) {
        const answer = await sendControlRequest(server.dataDir, { command: name, args });
        if (!answer.ok) throw new Error(`${name} ${args.join(" ")}: ${answer.error}`);
        return answer.output;
      },
      close: async () => {},
    };
  }
  const config = loadConfig({
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: postgres.databaseUrl,
    SESSION_SECRET: postgres.sessionSecret,
    DATA_DIR: server.dataDir,
    PUBLIC_URL: server.url,
  });
  const logger = createLogger("warn");
  const handle = await openDatabaseFor(config);
  const { services, close } = await composeProcess({ config, logger, handle });
  const context = { config, handle, logger, services };
  return {
    async run(name, ...args) {
      const command = commands[name];
      if (!command) throw new Error(`unknown command: ${name}`);
      return command.run(context, args);
    },
    async close() {
      close();
      await handle.close();
    },
  };
}

export interface SignedInReader {
  email: string;
  /** The Cookie header of the reader's session. */
  cookie: string;
}

/** Visits a login link (CLI `login-link`) and returns the session cookie it sets. */
export async function signInWithLink(link: string): Promise<string> {
  const response = await fetch(link, { redirect: "manual" });
  const cookie = response.headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .join("; ");
  if (!cookie.includes("session_token")) throw new Error(`no session from ${link}`);
  return cookie;
}

/** Creates and signs in one reader per address through `server`, with the CLI's login links. */
export async function signInReaders(
  server: RunningServer,
  emails: string[],
  postgres?: PostgresAccess,
): Promise<SignedInReader[]> {
  const operator = await openOperator(server, postgres);
  try {
    const readers: SignedInReader[] = [];
    for (const email of emails) {
      const link = await operator.run("login-link", email);
      readers.push({ email, cookie: await signInWithLink(link) });
    }
    return readers;
  } finally {
    await operator.close();
  }
}
