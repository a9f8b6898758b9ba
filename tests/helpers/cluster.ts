import { randomBytes } from "node:crypto";
import { createFreshPostgres } from "./fresh-postgres.ts";
import { openOperator, type PostgresAccess } from "./operator.ts";
import { type RunningServer, startServer } from "./server.ts";

export interface Cluster {
  postgres: PostgresAccess;
  /** The environment every instance was started with (start another one with it). */
  env: Record<string, string>;
  servers: RunningServer[];
  /** Stops every instance still running and drops the database. */
  stop(): Promise<void>;
}

/**
 * `count` production instances on one fresh PostgreSQL database (TEST_DATABASE_URL's server),
 * sharing SESSION_SECRET as an operator's would, started at once (so their migrations race under
 * the advisory lock) and, unless `seedDemo` is false, given the demo content with the CLI's
 * `seed-demo`.
 */
export async function startCluster(
  count: number,
  extraEnv: Record<string, string> = {},
  options: { seedDemo?: boolean } = {},
): Promise<Cluster> {
  const database = await createFreshPostgres("ev_reliability");
  const postgres = { databaseUrl: database.url, sessionSecret: randomBytes(32).toString("hex") };
  const env = {
    DATABASE_URL: postgres.databaseUrl,
    SESSION_SECRET: postgres.sessionSecret,
    DEMO_CONTENT: "false",
    ...extraEnv,
  };
  const servers: RunningServer[] = [];
  const stop = async () => {
    await Promise.all(servers.map((server) => server.stop("SIGKILL")));
    await database.drop();
  };
  try {
    servers.push(...(await Promise.all(Array.from({ length: count }, () => startServer(env)))));
    const [first] = servers;
    if (!first) throw new Error("a cluster needs an instance");
    if (options.seedDemo !== false) {
      const operator = await openOperator(first, postgres);
      await operator.run("seed-demo").finally(() => operator.close());
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { postgres, env, servers, stop };
}
