import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/client.ts";
import { startTcpProxy } from "../helpers/tcp-proxy.ts";

/**
 * A connection lost while a transaction holds it (README.md, What failures look like): the
 * statement fails, the process lives on, and the next statement after the database is back gets a
 * new connection. pg-pool listens for a client's errors only while the client is idle, so a reset
 * between two statements of a transaction once reached no listener and ended the process.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)(
  "a PostgreSQL connection lost mid-transaction",
  () => {
    const cleanups: Array<() => Promise<unknown>> = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it("fails the transaction, not the process, and the pool connects again", async () => {
      const direct = new URL(process.env.TEST_DATABASE_URL as string);
      const proxy = await startTcpProxy({
        host: direct.hostname,
        port: Number(direct.port || 5432),
      });
      cleanups.push(() => proxy.close());
      const throughProxy = new URL(direct);
      throughProxy.host = `127.0.0.1:${proxy.port}`;
      const handle = await openDatabase({ kind: "postgres", url: throughProxy.toString() });
      cleanups.push(() => handle.close());

      const transaction = handle.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await proxy.cut();
        // The reset reaches the checked-out client between two statements.
        await new Promise((resolve) => setTimeout(resolve, 200));
        await tx.execute(sql`select 1`);
      });
      await expect(transaction).rejects.toThrow();

      await proxy.restore();
      await expect(handle.db.execute(sql`select 2 as two`)).resolves.toBeDefined();
    });
  },
);
