import { sql } from "drizzle-orm";
import type { ServiceDeps } from "../core/deps.ts";
import { fediverseDeliveries } from "../db/schema.ts";
import { isUnderServer, serverOf } from "./blocks.ts";
import type { DeliverySigner, FediverseDeliveryOptions } from "./delivery.ts";
import { inboxUrlRefusal, type PostAnswer } from "./delivery-posts.ts";
import type { ActivityBodies, ClaimedDelivery, DeliveryRows } from "./delivery-rows.ts";
import { signedHeaders } from "./http-signature.ts";

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

/** At most `size` of the given tasks run at once; the others wait their turn, in order. */
export function createSlots(size: number) {
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

/** What every attempt works with, built once by createFediverseDelivery. */
export interface DeliveryParts {
  deps: Pick<ServiceDeps, "db" | "config"> & { allowPrivateAddresses: boolean };
  options: FediverseDeliveryOptions;
  rows: DeliveryRows;
  bodies: ActivityBodies;
  signing: ReturnType<typeof createSlots>;
  post(url: URL, headers: Record<string, string>, body: string): Promise<PostAnswer>;
}

const errorText = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).slice(0, 500);

const settle = (
  parts: DeliveryParts,
  delivery: ClaimedDelivery,
  claimToken: string,
  values: Record<string, unknown>,
) => parts.rows.settle(delivery.id, claimToken, values);

/** Sends one claimed delivery and settles its row: sent, retried later, or failed for good. */
export async function deliver(
  parts: DeliveryParts,
  delivery: ClaimedDelivery,
  claimToken: string,
  signer: DeliverySigner,
  markSent: (id: number, status: number) => Promise<void>,
  blockedServers: Set<string>,
): Promise<"sent" | "retry" | "failed"> {
  const { deps } = parts;
  const body = parts.bodies.get(delivery.activityId);
  if (!body) {
    await settle(parts, delivery, claimToken, { state: "failed", lastError: "activity not found" });
    return "failed";
  }
  const url = new URL(delivery.inbox);
  // A server the poet blocked (docs/product/fediverse.md) gets nothing more, queued or not.
  const host = serverOf(url);
  const refusal = [...blockedServers].some((blocked) => isUnderServer(host, blocked))
    ? "the poet blocked this server"
    : inboxUrlRefusal(url, deps.allowPrivateAddresses);
  if (refusal) {
    await settle(parts, delivery, claimToken, { state: "failed", lastError: refusal });
    return "failed";
  }
  let answer: PostAnswer;
  try {
    const headers = await parts.signing.run(() =>
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
    answer = await parts.post(url, headers, body.json);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOTPUBLIC") {
      await settle(parts, delivery, claimToken, { state: "failed", lastError: errorText(error) });
      return "failed";
    }
    return retry(
      parts,
      delivery,
      claimToken,
      { lastStatus: null, lastError: errorText(error) },
      null,
    );
  }
  const outcome = outcomeOfStatus(answer.status);
  if (outcome === "sent") {
    await markSent(delivery.id, answer.status);
    return "sent";
  }
  if (outcome === "give up") {
    await settle(parts, delivery, claimToken, {
      state: "failed",
      lastStatus: answer.status,
      lastError: `the inbox answered ${answer.status}`,
    });
    return "failed";
  }
  return retry(
    parts,
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
  parts: DeliveryParts,
  delivery: ClaimedDelivery,
  claimToken: string,
  values: { lastStatus: number | null; lastError: string },
  retryAfter: number | null,
): Promise<"retry" | "failed"> {
  const { options } = parts;
  const delaySeconds = retryDelayMs(delivery.attempts, options, retryAfter) / 1000;
  const next = sql`now() + make_interval(secs => ${delaySeconds})`;
  const [row] = await parts.deps.db
    .update(fediverseDeliveries)
    .set({
      ...values,
      state: sql`case when ${fediverseDeliveries.createdAt} + make_interval(secs => ${options.retryForMs / 1000}) >= ${next} then 'retrying' else 'failed' end`,
      nextAttemptAt: next,
      claimedBy: null,
      leaseUntil: null,
    })
    .where(parts.rows.ownedBy(delivery.id, claimToken))
    .returning({ state: fediverseDeliveries.state });
  return row?.state === "failed" ? "failed" : "retry";
}
