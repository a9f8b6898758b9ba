import { randomBytes } from "node:crypto";
import pg from "pg";

export interface FreshPostgres {
  /** Connection string of the new, empty database. */
  url: string;
  drop(): Promise<void>;
}

/** Runs one statement on the TEST_DATABASE_URL server's maintenance database. */
async function onServer(statement: string) {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A new, empty PostgreSQL database on the TEST_DATABASE_URL server for server processes to
 * migrate themselves, dropped (with any connections still open) by `drop`.
 */
export async function createFreshPostgres(prefix: string): Promise<FreshPostgres> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error("TEST_DATABASE_URL is not set");
  const name = `${prefix}_${randomBytes(5).toString("hex")}`;
  await onServer(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => onServer(`drop database if exists ${name} with (force)`),
  };
}
