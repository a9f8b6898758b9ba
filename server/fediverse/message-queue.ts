import type {
  MessageQueue,
  MessageQueueEnqueueOptions,
  MessageQueueListenOptions,
} from "@fedify/fedify";
import { eq, sql } from "drizzle-orm";
import { type Database, rowsOf } from "../db/client.ts";
import { fediverseMessages } from "../db/schema.ts";
import { createBackgroundLoop } from "../jobs/loop.ts";
import type { Logger } from "../logger.ts";

/**
 * Fedify's message queue on our own schema (docs/decisions/044-fediverse-store-and-queue.md):
 * the inbox work and the few activities Fedify sends itself (the Accept of a Follow). A message
 * is a row; an instance claims ready rows with `FOR UPDATE SKIP LOCKED`, as the digest sender
 * does, locking them for `LOCK_SECONDS`, and deletes each once its handler has returned. A
 * message whose instance died is taken again when its lock ends; Fedify's own retries (the queue
 * is not `nativeRetrial`) enqueue a new message with a delay.
 */
const LOCK_SECONDS = 120;
/** How many messages one claim takes and handles side by side. */
const CLAIM_BATCH = 8;
/** How often an idle instance looks for messages others queued or whose delay ended. */
const POLL_MS = 500;

export interface DatabaseMessageQueue extends MessageQueue {
  /** Claims and handles what is ready now, once; tests and `listen` call it. */
  drain(): Promise<number>;
}

export function createMessageQueue(db: Database, logger: Logger): DatabaseMessageQueue {
  let handler: ((message: unknown) => Promise<void> | void) | undefined;
  const wakers = new Set<() => void>();

  async function claim(): Promise<Array<{ id: number; message: unknown }>> {
    // A message waits while another with its ordering key is locked, so those run in order.
    const result = await db.execute(sql`
      update ${fediverseMessages} set locked_until = now() + make_interval(secs => ${LOCK_SECONDS})
      where id in (
        select m.id from ${fediverseMessages} m
        where m.ready_at <= now()
          and (m.locked_until is null or m.locked_until < now())
          and (m.ordering_key is null or not exists (
            select 1 from ${fediverseMessages} o
            where o.ordering_key = m.ordering_key and o.id <> m.id
              and (o.id < m.id or o.locked_until >= now())
          ))
        order by m.ready_at, m.id
        limit ${CLAIM_BATCH}
        for update skip locked
      )
      returning id, message`);
    return rowsOf<{ id: number; message: unknown }>(result);
  }

  async function drain(): Promise<number> {
    const current = handler;
    if (!current) return 0;
    const claimed = await claim();
    await Promise.all(
      claimed.map(async ({ id, message }) => {
        try {
          await current(message);
        } catch (error) {
          logger.warn({ err: error, messageId: id }, "fediverse message failed");
        }
        await db.delete(fediverseMessages).where(eq(fediverseMessages.id, id));
      }),
    );
    return claimed.length;
  }

  function wake() {
    for (const waker of wakers) waker();
  }

  async function enqueueRows(messages: readonly unknown[], options?: MessageQueueEnqueueOptions) {
    if (messages.length === 0) return;
    const delayMs = options?.delay ? Math.max(0, options.delay.total({ unit: "millisecond" })) : 0;
    await db.insert(fediverseMessages).values(
      messages.map((message) => ({
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
    enqueueMany: (messages, options) => enqueueRows(messages, options),
    drain,

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
