import { randomBytes } from "node:crypto";
import pg from "pg";

export interface FreshPostgres {
  /** Connection string of the new, empty database. */
  url: string;
  drop(): Promise<void>;
}

/** Runs one statement on the server's maintenance database. */
async function onServer(server: string, statement: string) {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A new, empty PostgreSQL database on the `server` (TEST_DATABASE_URL's by default) for server
 * processes to migrate themselves, dropped (with any connections still open) by `drop`.
 */
export async function createFreshPostgres(
  prefix: string,
  server = process.env.TEST_DATABASE_URL,
): Promise<FreshPostgres> {
  if (!server) throw new Error("TEST_DATABASE_URL is not set");
  const name = `${prefix}_${randomBytes(5).toString("hex")}`;
  await onServer(server, `create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => onServer(server, `drop database if exists ${name} with (force)`),
  };
}
