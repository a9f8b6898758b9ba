import { randomUUID } from "node:crypto";
import type {
  MessageQueue,
  MessageQueueEnqueueOptions,
  MessageQueueListenOptions,
} from "@fedify/fedify";
import { and, asc, eq, gte, isNull, lt, lte, ne, notExists, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Database, rowsOf } from "../db/client.ts";
import { fediverseMessages } from "../db/schema.ts";
import { leasedRows } from "../jobs/leased-rows.ts";
import { createBackgroundLoop } from "../jobs/loop.ts";
import type { Logger } from "../logger.ts";

/**
 * Fedify's message queue on our own schema (docs/decisions/044-fediverse-store-and-queue.md):
 * the inbox work and the few activities Fedify sends itself (the Accept of a Follow). A message
 * is a row, claimed with a lease like every queue's (server/jobs/leased-rows.ts) and deleted once
 * its handler has returned. A message whose instance died is taken again when its lease ends;
 * Fedify's own retries (the queue is not `nativeRetrial`) enqueue a new message with a delay.
 */
const LEASE_SECONDS = 120;
/** How many messages one claim takes and handles side by side. */
const CLAIM_BATCH = 8;
/** How often an idle instance looks for messages others queued or whose delay ended. */
const POLL_MS = 500;

export interface DatabaseMessageQueue extends MessageQueue {
  /** Claims and handles what is ready now, once; tests and `listen` call it. */
  drain(): Promise<number>;
  /** Ends this process's claims from before a restart (server/jobs/registry.ts). */
  releaseOwnClaims(): Promise<void>;
}

/** Another message of the same ordering key, to wait for. */
const earlier = alias(fediverseMessages, "earlier");

/**
 * The messages a claim may take: ready, held by no live lease, and not waiting on another of
 * their ordering key, which waits while an older one is queued or another is being handled, so
 * those run in order.
 */
const claimable = (db: Database) =>
  and(
    lte(fediverseMessages.readyAt, sql`now()`),
    or(isNull(fediverseMessages.leaseUntil), lt(fediverseMessages.leaseUntil, sql`now()`)),
    or(
      isNull(fediverseMessages.orderingKey),
      notExists(
        db
          .select({ id: earlier.id })
          .from(earlier)
          .where(
            and(
              eq(earlier.orderingKey, fediverseMessages.orderingKey),
              ne(earlier.id, fediverseMessages.id),
              or(lt(earlier.id, fediverseMessages.id), gte(earlier.leaseUntil, sql`now()`)),
            ),
          ),
      ),
    ),
  );

export function createMessageQueue(db: Database, logger: Logger): DatabaseMessageQueue {
  let handler: ((message: unknown) => Promise<void> | void) | undefined;
  const wakers = new Set<() => void>();
  const messages = leasedRows(db, {
    table: fediverseMessages,
    claimable: claimable(db),
    orderBy: [asc(fediverseMessages.readyAt), asc(fediverseMessages.id)],
    returning: { id: fediverseMessages.id, message: fediverseMessages.message },
    leaseSeconds: LEASE_SECONDS,
  });

  async function drain(): Promise<number> {
    const current = handler;
    if (!current) return 0;
    const claimToken = randomUUID();
    const claimed = await messages.claim(claimToken, CLAIM_BATCH);
    await Promise.all(
      claimed.map(async ({ id, message }) => {
        try {
          await current(message);
        } catch (error) {
          logger.warn({ err: error, messageId: id }, "fediverse message failed");
        }
        await db.delete(fediverseMessages).where(messages.ownedBy(id, claimToken));
      }),
    );
    return claimed.length;
  }

  function wake() {
    for (const waker of wakers) waker();
  }

  async function enqueueRows(queued: readonly unknown[], options?: MessageQueueEnqueueOptions) {
    if (queued.length === 0) return;
    const delayMs = options?.delay ? Math.max(0, options.delay.total({ unit: "millisecond" })) : 0;
    await db.insert(fediverseMessages).values(
      queued.map((message) => ({
        message,
        orderingKey: options?.orderingKey ?? null,
        readyAt: sql`now() + make_interval(secs => ${delayMs / 1000})`,
      })),
    );
    if (delayMs === 0) wake();
  }

  return {
    nativeRetrial: false,
    enqueue: (message, options) => enqueueRows([message], options),
    enqueueMany: (queued, options) => enqueueRows(queued, options),
    drain,
    releaseOwnClaims: () => messages.releaseAll(undefined),

    async getDepth() {
      const [row] = rowsOf<{ queued: number; ready: number }>(
        await db.execute(sql`
          select count(*)::int as queued, count(*) filter (where ready_at <= now())::int as ready
          from ${fediverseMessages}`),
      );
      const queued = row?.queued ?? 0;
      const ready = row?.ready ?? 0;
      return { queued, ready, delayed: queued - ready };
    },

    async listen(handle, options?: MessageQueueListenOptions): Promise<void> {
      handler = handle;
      const loop = createBackgroundLoop({
        name: "fediverse queue",
        step: drain,
        pollMs: POLL_MS,
        logger,
      });
      const waker = () => loop.wake();
      wakers.add(waker);
      loop.start();
      await new Promise<void>((resolve) => {
        if (options?.signal?.aborted) resolve();
        options?.signal?.addEventListener("abort", () => resolve(), { once: true });
      });
      wakers.delete(waker);
      await loop.stop();
    },
  };
}
