import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { and, desc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { PoemDeliveryState } from "../../common/schemas/fediverse-delivery.ts";
import type { ServiceDeps } from "../core/deps.ts";
import type { Database } from "../db/client.ts";
import { fediverseActivities, fediverseBlocks, fediverseDeliveries, poems } from "../db/schema.ts";
import { createLeasedQueue } from "../jobs/leased-queue.ts";
import { leasedRows } from "../jobs/leased-rows.ts";
import { isPublicAddress } from "../media/public-address.ts";
import { isUnderServer, serverOf } from "./blocks.ts";
import { bodyDigest, signedHeaders } from "./http-signature.ts";

/** The actor's RSA key, with which every POST is signed (draft-cavage, as Mastodon expects). */
export interface DeliverySigner {
  keyId: URL;
  privateKey: CryptoKey;
}

export interface FediverseDeliveryOptions {
  /** Deliveries claimed per round trip. */
  batchSize: number;
  /** POSTs in flight at once on this instance: also the most a crash can re-send. */
  concurrency: number;
  /**
   * Signatures made at once. Each RSA signature is made on libuv's thread pool (about 1 ms,
   * server/fediverse/http-signature.ts); one at a time leaves the other core to readers' pages
   * while the other POSTs wait for their answers.
   */
  signingSlots: number;
  /** A POST with no answer after this long counts as a timeout, retried like a 5xx. */
  requestTimeoutMs: number;
  /** A temporary failure is retried after retryBaseMs × 2^(attempt − 1), at most retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Retried for this long after the activity was queued, then failed for good. */
  retryForMs: number;
  /** How long a claim is this instance's before another may send the row (a crash's bound). */
  leaseSeconds: number;
  /** How often an idle sender looks for work that another instance queued. */
  pollMs: number;
}

const HOUR_MS = 60 * 60 * 1000;

export const DELIVERY_DEFAULTS: FediverseDeliveryOptions = {
  batchSize: 64,
  concurrency: 8,
  signingSlots: 1,
  requestTimeoutMs: 10_000,
  retryBaseMs: 60_000,
  retryMaxMs: 6 * HOUR_MS,
  retryForMs: 48 * HOUR_MS,
  leaseSeconds: 60,
  pollMs: 2_000,
};

/**
 * What an inbox's answer means for the delivery (docs/decisions/047-fediverse-delivery.md): a
 * 2xx is done; 404 and 410 (the inbox or account is gone) and the other 4xx that the same request
 * can never fix (400, 403, 413, 422, …) give up at once; 5xx, 429, 408 and 401 (a receiver that
 * could not fetch our key yet answers 401) are retried with backoff, like a timeout or a refused
 * connection.
 */
export function outcomeOfStatus(status: number): "sent" | "retry" | "give up" {
  if (status >= 200 && status < 300) return "sent";
  if (status >= 500 || status === 429 || status === 408 || status === 401) return "retry";
  return "give up";
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from `now`; null when absent. */
export function retryAfterMs(header: string | undefined, now: number): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The backoff before attempt `attempts + 1`, honouring a longer Retry-After. */
export function retryDelayMs(
  attempts: number,
  options: Pick<FediverseDeliveryOptions, "retryBaseMs" | "retryMaxMs">,
  retryAfter: number | null,
): number {
  const backoff = Math.min(
    options.retryBaseMs * 2 ** Math.max(0, attempts - 1),
    options.retryMaxMs,
  );
  return Math.min(Math.max(backoff, retryAfter ?? 0), options.retryMaxMs);
}

/**
 * Refuses, at connection time, any inbox whose host resolves to a private, loopback or otherwise
 * non-public address (the same rule as image URLs, server/media/public-address.ts): the socket
 * goes to the address that was checked, so a second DNS answer cannot swap one in.
 */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, "", 4);
      const list = addresses as dns.LookupAddress[];
      if (!allowPrivate && !list.every((entry) => isPublicAddress(entry.address))) {
        return callback(
          Object.assign(new Error(`${hostname} is not a public internet address`), {
            code: "ENOTPUBLIC",
          }),
          "",
          4,
        );
      }
      if (options.all) return callback(null, list);
      const [first] = list;
      if (!first) return callback(new Error(`${hostname} could not be resolved`), "", 4);
      callback(null, first.address, first.family);
    });
  };
}

const inboxUrlRefusal = (url: URL, allowPrivate: boolean): string | null => {
  if (url.protocol !== "https:" && url.protocol !== "http:") return "not an http(s) inbox";
  if (url.username || url.password) return "an inbox URL with credentials";
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  // A literal address skips the lookup, so it is judged here.
  if (!allowPrivate && isIP(host) !== 0 && !isPublicAddress(host)) {
    return `${host} is not a public internet address`;
  }
  return null;
};

/** At most `size` of the given tasks run at once; the others wait their turn, in order. */
function createSlots(size: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running >= size) await new Promise<void>((resolve) => waiting.push(resolve));
      else running += 1;
      try {
        return await task();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running -= 1;
      }
    },
  };
}

interface PostAnswer {
  status: number;
  retryAfter?: string;
}

interface ClaimedDelivery {
  id: number;
  activityId: number;
  inbox: string;
  attempts: number;
}

const errorText = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).slice(0, 500);

/**
 * Queues activities for followers' inboxes and delivers them, on every instance at once
 * (docs/decisions/047-fediverse-delivery.md). One row per (activity, inbox), claimed with
 * FOR UPDATE SKIP LOCKED and a lease; the claim is written before the POST goes, the 2xx is
 * recorded the moment it is answered, and a row is never claimed again once sent. A crash
 * between the answer and that record leaves the row to be sent again after the lease: at most
 * the POSTs in flight, which receivers drop by the activity's id.
 */
export function createFediverseDelivery(
  deps: ServiceDeps & {
    signer: () => Promise<DeliverySigner>;
    allowPrivateAddresses: boolean;
    options?: Partial<FediverseDeliveryOptions>;
  },
) {
  const { db, logger } = deps;
  const options = { ...DELIVERY_DEFAULTS, ...deps.options };
  const lookup = guardedLookup(deps.allowPrivateAddresses);
  const agents = {
    "http:": new http.Agent({ keepAlive: true, maxSockets: options.concurrency, lookup }),
    "https:": new https.Agent({ keepAlive: true, maxSockets: options.concurrency, lookup }),
  };
  const signing = createSlots(options.signingSlots);
  /** Activity bodies by row id, serialised once per instance and shared by all their inboxes. */
  const bodies = new Map<number, { json: string; digest: string }>();

  const rows = leasedRows(db, {
    table: fediverseDeliveries,
    claimable: and(
      inArray(fediverseDeliveries.state, ["pending", "retrying"]),
      lte(fediverseDeliveries.nextAttemptAt, sql`now()`),
      or(isNull(fediverseDeliveries.leaseUntil), lte(fediverseDeliveries.leaseUntil, sql`now()`)),
    ),
    orderBy: [fediverseDeliveries.nextAttemptAt, fediverseDeliveries.id],
    returning: {
      id: fediverseDeliveries.id,
      activityId: fediverseDeliveries.activityId,
      inbox: fediverseDeliveries.inbox,
      attempts: fediverseDeliveries.attempts,
    },
    onClaim: { attempts: sql`${fediverseDeliveries.attempts} + 1` },
    leaseSeconds: options.leaseSeconds,
  });
  const settle = (delivery: ClaimedDelivery, claimToken: string, values: Record<string, unknown>) =>
    rows.settle(delivery.id, claimToken, values);

  async function loadBodies(activityIds: number[]) {
    const missing = activityIds.filter((id) => !bodies.has(id));
    if (missing.length === 0) return;
    const rows = await db
      .select({ id: fediverseActivities.id, body: fediverseActivities.body })
      .from(fediverseActivities)
      .where(inArray(fediverseActivities.id, missing));
    for (const row of rows) {
      const json = JSON.stringify(row.body);
      bodies.set(row.id, { json, digest: bodyDigest(json) });
    }
  }

  function post(url: URL, headers: Record<string, string>, body: string): Promise<PostAnswer> {
    const transport = url.protocol === "https:" ? https : http;
    return new Promise((resolve, reject) => {
      const request = transport.request(
        url,
        {
          method: "POST",
          headers,
          agent: agents[url.protocol as "http:" | "https:"],
          timeout: options.requestTimeoutMs,
        },
        (response) => {
          // The answer's body says nothing the delivery needs; read it so the socket is reused.
          response.resume();
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              retryAfter: response.headers["retry-after"],
            }),
          );
          response.on("error", reject);
        },
      );
      request.on("timeout", () =>
        request.destroy(new Error(`no answer within ${options.requestTimeoutMs / 1000} s`)),
      );
      request.on("error", reject);
      request.end(body);
    });
  }

  /**
   * Records 2xx answers together: an answer waits for the write in progress, if any, and goes in
   * the next one, so a busy fan-out writes one UPDATE per handful of answers rather than one
   * each. A worker starts its next POST only once its last answer is recorded, so a crash still
   * re-sends at most the POSTs in flight.
   */
  function sentMarks(claimToken: string) {
    let waiting: { id: number; status: number }[] = [];
    let writing: Promise<void> | undefined;
    let next: Promise<void> | undefined;
    async function write(rows: { id: number; status: number }[]) {
      for (const status of new Set(rows.map((row) => row.status))) {
        const ids = rows.filter((row) => row.status === status).map((row) => row.id);
        await db
          .update(fediverseDeliveries)
          .set({
            state: "sent",
            sentAt: deps.now(),
            lastStatus: status,
            lastError: null,
            claimedBy: null,
            leaseUntil: null,
          })
          .where(
            and(
              inArray(fediverseDeliveries.id, ids),
              eq(fediverseDeliveries.claimedBy, claimToken),
            ),
          );
      }
    }
    return (id: number, status: number): Promise<void> => {
      waiting.push({ id, status });
      next ??= (async () => {
        await writing?.catch(() => {});
        const rows = waiting;
        waiting = [];
        next = undefined;
        writing = write(rows);
        await writing;
      })();
      return next;
    };
  }

  async function deliver(
    delivery: ClaimedDelivery,
    claimToken: string,
    signer: DeliverySigner,
    markSent: (id: number, status: number) => Promise<void>,
    blockedServers: Set<string>,
  ): Promise<"sent" | "retry" | "failed"> {
    const body = bodies.get(delivery.activityId);
    if (!body) {
      await settle(delivery, claimToken, { state: "failed", lastError: "activity not found" });
      return "failed";
    }
    const url = new URL(delivery.inbox);
    // A server the poet blocked (docs/product/fediverse.md) gets nothing more, queued or not.
    const host = serverOf(url);
    const refusal = [...blockedServers].some((blocked) => isUnderServer(host, blocked))
      ? "the poet blocked this server"
      : inboxUrlRefusal(url, deps.allowPrivateAddresses);
    if (refusal) {
      await settle(delivery, claimToken, { state: "failed", lastError: refusal });
      return "failed";
    }
    let answer: PostAnswer;
    try {
      const headers = await signing.run(() =>
        signedHeaders(
          url,
          {
            "content-type": "application/activity+json",
            accept: "application/activity+json",
            "user-agent": `EmberVerse (+${deps.config.publicUrl.origin})`,
          },
          body.digest,
          signer,
        ),
      );
      answer = await post(url, headers, body.json);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === "ENOTPUBLIC") {
        await settle(delivery, claimToken, { state: "failed", lastError: errorText(error) });
        return "failed";
      }
      return retry(delivery, claimToken, { lastStatus: null, lastError: errorText(error) }, null);
    }
    const outcome = outcomeOfStatus(answer.status);
    if (outcome === "sent") {
      await markSent(delivery.id, answer.status);
      return "sent";
    }
    if (outcome === "give up") {
      await settle(delivery, claimToken, {
        state: "failed",
        lastStatus: answer.status,
        lastError: `the inbox answered ${answer.status}`,
      });
      return "failed";
    }
    return retry(
      delivery,
      claimToken,
      { lastStatus: answer.status, lastError: `the inbox answered ${answer.status}` },
      retryAfterMs(answer.retryAfter, Date.now()),
    );
  }

  /**
   * Schedules the next attempt, or fails the delivery once it would fall past retryForMs after
   * the activity was queued. Timed by the database's clock, which every instance's claim reads
   * (docs/decisions/038-which-clock.md).
   */
  async function retry(
    delivery: ClaimedDelivery,
    claimToken: string,
    values: { lastStatus: number | null; lastError: string },
    retryAfter: number | null,
  ): Promise<"retry" | "failed"> {
    const delaySeconds = retryDelayMs(delivery.attempts, options, retryAfter) / 1000;
    const next = sql`now() + make_interval(secs => ${delaySeconds})`;
    const [row] = await db
      .update(fediverseDeliveries)
      .set({
        ...values,
        state: sql`case when ${fediverseDeliveries.createdAt} + make_interval(secs => ${options.retryForMs / 1000}) >= ${next} then 'retrying' else 'failed' end`,
        nextAttemptAt: next,
        claimedBy: null,
        leaseUntil: null,
      })
      .where(rows.ownedBy(delivery.id, claimToken))
      .returning({ state: fediverseDeliveries.state });
    return row?.state === "failed" ? "failed" : "retry";
  }

  const queue = createLeasedQueue({
    name: "fediverse delivery",
    logger,
    batchSize: options.batchSize,
    concurrency: options.concurrency,
    pollMs: options.pollMs,
    claim: rows.claim,
    async prepare(claimed: ClaimedDelivery[], claimToken) {
      await loadBodies([...new Set(claimed.map((delivery) => delivery.activityId))]);
      const blockedServers = new Set(
        (
          await db
            .select({ value: fediverseBlocks.value })
            .from(fediverseBlocks)
            .where(eq(fediverseBlocks.kind, "server"))
        ).map((row) => row.value),
      );
      return { signer: await deps.signer(), markSent: sentMarks(claimToken), blockedServers };
    },
    worker: (batch, claimToken) => ({
      handle: (delivery) =>
        deliver(delivery, claimToken, batch.signer, batch.markSent, batch.blockedServers),
    }),
    logged: { message: "fediverse deliveries sent" },
    releaseOwnClaims: () =>
      rows.releaseAll(inArray(fediverseDeliveries.state, ["pending", "retrying"])),
  });

  return {
    ...queue,
    async stop(): Promise<void> {
      await queue.stop();
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}

export type FediverseDelivery = ReturnType<typeof createFediverseDelivery>;

/**
 * Records an activity and one pending delivery per inbox (deduplicated), in the caller's
 * transaction, so the activity and its deliveries exist together or not at all.
 */
export async function enqueueActivity(
  tx: Pick<Database, "insert">,
  activity: {
    activityId: string;
    type: "Create" | "Update" | "Delete";
    poemId: number;
    body: Record<string, unknown>;
  },
  inboxes: string[],
): Promise<number> {
  const [row] = await tx
    .insert(fediverseActivities)
    .values(activity)
    .returning({ id: fediverseActivities.id });
  if (!row) throw new Error("the activity was not recorded");
  const unique = [...new Set(inboxes)];
  for (let start = 0; start < unique.length; start += 1000) {
    await tx
      .insert(fediverseDeliveries)
      .values(unique.slice(start, start + 1000).map((inbox) => ({ activityId: row.id, inbox })))
      .onConflictDoNothing();
  }
  return row.id;
}

/**
 * Per poem that followers were sent anything about: its deliveries counted by state, and its
 * latest activity, newest first (the admin's fediverse page).
 */
export async function deliveryStateByPoem(db: Database): Promise<PoemDeliveryState[]> {
  const counted = (state: string) =>
    sql<number>`count(${fediverseDeliveries.id}) filter (where ${fediverseDeliveries.state} = ${state})::int`;
  const rows = await db
    .select({
      poemId: fediverseActivities.poemId,
      title: poems.title,
      slug: poems.slug,
      sent: counted("sent"),
      retrying: sql<number>`count(${fediverseDeliveries.id}) filter (where ${fediverseDeliveries.state} in ('pending', 'retrying'))::int`,
      failed: counted("failed"),
      lastAt: sql<Date>`max(${fediverseActivities.createdAt})`.mapWith(
        fediverseActivities.createdAt,
      ),
      lastType: sql<
        PoemDeliveryState["lastActivity"]["type"]
      >`(array_agg(${fediverseActivities.type} order by ${fediverseActivities.createdAt} desc, ${fediverseActivities.id} desc))[1]`,
    })
    .from(fediverseActivities)
    .leftJoin(fediverseDeliveries, eq(fediverseDeliveries.activityId, fediverseActivities.id))
    .leftJoin(poems, eq(poems.id, fediverseActivities.poemId))
    .groupBy(fediverseActivities.poemId, poems.title, poems.slug)
    .orderBy(sql`max(${fediverseActivities.createdAt}) desc`, desc(fediverseActivities.poemId));
  return rows.map(({ lastAt, lastType, ...row }) => ({
    ...row,
    lastActivity: { type: lastType, at: lastAt },
  }));
}
