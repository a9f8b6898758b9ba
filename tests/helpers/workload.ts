import { randomBytes } from "node:crypto";
import http from "node:http";
import { count, inArray, isNull, like } from "drizzle-orm";
import type { DatabaseHandle } from "../../server/db/client.ts";
import {
  echoes,
  journalEntries,
  poems,
  subscriptions,
  users,
  whispers,
} from "../../server/db/schema.ts";
import type { SignedInReader } from "./operator.ts";

/**
 * A mixed reader workload over one or more app instances, as real readers would make it: 80%
 * page and API reads, 20% writes (echo toggles, whispers, journal saves, subscriptions). Every
 * write's outcome is kept in a ledger that `verifyLedger` then checks against the database.
 */

export interface LoadPoem {
  slug: string;
  stanzaCount: number;
}

export interface RequestRecord {
  target: string;
  method: string;
  path: string;
  isWrite: boolean;
  /** The HTTP status, or 0 when no answer came (connection refused or reset, timed out). */
  status: number;
  error?: string;
  startedAt: number;
  ms: number;
}

/** What is known of one echo or journal entry: its state after the last request about it. */
interface ToggleState {
  /** Present or not per the last answer; undefined when the last request got no answer. */
  isPresent: boolean | undefined;
  readerEmail: string;
  slug: string;
  stanzaIndex: string;
}

export interface WriteLedger {
  /** Whisper text (unique per request) to its id once acknowledged; undefined: no answer. */
  whispers: Map<string, number | undefined>;
  /** Subscribed addresses: true once acknowledged, false while no answer came. */
  subscriptions: Map<string, boolean>;
  echoes: Map<string, ToggleState>;
  journal: Map<string, ToggleState>;
}

export interface WorkloadResult {
  records: RequestRecord[];
  ledger: WriteLedger;
  /** Marks whisper texts and subscription addresses of this run, for the checks. */
  runId: string;
  durationMs: number;
}

export interface WorkloadOptions {
  /** Base URLs the requests go to, asked before every request so a test can swap an instance. */
  targets(): string[];
  readers: SignedInReader[];
  poems: LoadPoem[];
  connections: number;
  durationMs: number;
}

/** A request whose connection stays silent this long is abandoned, recorded with status 0 (a hang). */
const REQUEST_TIMEOUT_MS = 15_000;

const ANONYMOUS_PAGES = ["/", "/poetry", "/ember", "/books", "/guest-voices"];

function pick<T>(items: readonly T[]): T {
  const item = items[Math.floor(Math.random() * items.length)];
  if (item === undefined) throw new Error("nothing to pick from");
  return item;
}

interface Answer {
  status: number;
  body: string;
  error?: string;
}

/** One request on the worker's own keep-alive connection; never rejects. */
function send(
  agent: http.Agent,
  target: string,
  method: string,
  path: string,
  options: { cookie?: string; body?: unknown; timeoutMs: number },
): Promise<Answer> {
  return new Promise((resolve) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const request = http.request(`${target}${path}`, {
      method,
      agent,
      headers: {
        // Reads ask for compression as browsers do; write answers stay plain to be parsed here.
        ...(payload ? {} : { "accept-encoding": "gzip, br" }),
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...(payload
          ? {
              "content-type": "application/json",
              origin: target,
              "content-length": Buffer.byteLength(payload),
            }
          : {}),
      },
      timeout: options.timeoutMs,
    });
    request.on("timeout", () => request.destroy(new Error("timed out")));
    request.on("error", (error: NodeJS.ErrnoException) =>
      resolve({ status: 0, body: "", error: error.code ?? error.message }),
    );
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", (error: NodeJS.ErrnoException) =>
        resolve({ status: 0, body: "", error: error.code ?? error.message }),
      );
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    request.end(payload);
  });
}

/**
 * Runs `connections` virtual readers for `durationMs`, each on a keep-alive connection of its
 * own per instance, alternating instances request by request. A reader's echo and journal keys
 * belong to that worker alone, so their toggles are sequential and the last answer is the truth.
 */
export async function runWorkload(options: WorkloadOptions): Promise<WorkloadResult> {
  const runId = randomBytes(4).toString("hex");
  const ledger: WriteLedger = {
    whispers: new Map(),
    subscriptions: new Map(),
    echoes: new Map(),
    journal: new Map(),
  };
  const records: RequestRecord[] = [];
  const started = Date.now();
  const deadline = started + options.durationMs;
  const readerCount = options.readers.length;

  async function worker(index: number) {
    const reader = options.readers[index % readerCount];
    // Workers sharing a reader own different poems, so no two toggle the same key.
    const ownPoem = options.poems[Math.floor(index / readerCount) % options.poems.length];
    if (!reader || !ownPoem) throw new Error("not enough readers or poems for the workload");
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    let sequence = 0;
    let turn = index;
    try {
      while (Date.now() < deadline) {
        const targets = options.targets();
        const target = targets[turn++ % targets.length] ?? "";
        const call = async (
          method: string,
          path: string,
          isWrite: boolean,
          extra: { cookie?: string; body?: unknown } = {},
        ) => {
          const startedAt = Date.now();
          const answer = await send(agent, target, method, path, {
            ...extra,
            timeoutMs: REQUEST_TIMEOUT_MS,
          });
          records.push({
            target,
            method,
            path,
            isWrite,
            status: answer.status,
            error: answer.error,
            startedAt,
            ms: Date.now() - startedAt,
          });
          // A refused connection answers at once: do not spin on an instance that is down.
          if (answer.status === 0) await new Promise((resolve) => setTimeout(resolve, 50));
          return answer;
        };
        const cookie = reader.cookie;
        const poem = pick(options.poems);
        const dice = Math.random() * 100;
        sequence += 1;
        if (dice < 35) {
          await call("GET", pick([...ANONYMOUS_PAGES, `/poetry/${poem.slug}`]), false);
        } else if (dice < 42) {
          await call("GET", `/poetry/${poem.slug}`, false, { cookie });
        } else if (dice < 80) {
          const path = pick([
            "/api/poems",
            `/api/poems/${poem.slug}`,
            `/api/poems/${poem.slug}/echos`,
            `/api/poems/${poem.slug}/whispers/0`,
            "/api/journal",
          ]);
          await call("GET", path, false, { cookie });
        } else if (dice < 87) {
          const stanzaIndex = String(Math.floor(Math.random() * Math.min(3, ownPoem.stanzaCount)));
          const key = `${reader.email}|${ownPoem.slug}|${stanzaIndex}`;
          const answer = await call("POST", `/api/poems/${ownPoem.slug}/echo`, true, {
            cookie,
            body: { stanzaIndex },
          });
          recordToggle(ledger.echoes, key, reader.email, ownPoem.slug, stanzaIndex, answer);
        } else if (dice < 91) {
          const text = `load ${runId} ${index}-${sequence}`;
          ledger.whispers.set(text, undefined);
          const answer = await call("POST", `/api/poems/${poem.slug}/whispers`, true, {
            cookie,
            body: { stanzaIndex: 0, body: text },
          });
          if (answer.status >= 200 && answer.status < 300) {
            ledger.whispers.set(text, (JSON.parse(answer.body) as { id: number }).id);
          } else if (answer.status !== 0) {
            ledger.whispers.delete(text);
          }
        } else if (dice < 97) {
          const stanzaIndex = String(Math.floor(Math.random() * Math.min(3, ownPoem.stanzaCount)));
          const key = `${reader.email}|${ownPoem.slug}|${stanzaIndex}`;
          const isAdd = dice < 94;
          const answer = await call(isAdd ? "PUT" : "POST", "/api/journal", true, {
            cookie,
            body: { poemSlug: ownPoem.slug, stanzaIndex },
          });
          // PUT always leaves the entry saved (its `added` only says whether it was new).
          const isOk = answer.status >= 200 && answer.status < 300;
          recordToggle(
            ledger.journal,
            key,
            reader.email,
            ownPoem.slug,
            stanzaIndex,
            isAdd && isOk ? { ...answer, body: '{"added":true}' } : answer,
          );
        } else {
          const email = `sub-${runId}-${index}-${sequence}@example.com`;
          ledger.subscriptions.set(email, false);
          const answer = await call("POST", "/api/subscribe", true, { body: { email } });
          if (answer.status >= 200 && answer.status < 300) {
            ledger.subscriptions.set(email, true);
          } else if (answer.status !== 0) {
            ledger.subscriptions.delete(email);
          }
        }
      }
    } finally {
      agent.destroy();
    }
  }

  await Promise.all(Array.from({ length: options.connections }, (_, index) => worker(index)));
  return { records, ledger, runId, durationMs: Date.now() - started };
}

/** Keeps what the answer says about a toggled key; a refused (4xx/5xx) request changes nothing. */
function recordToggle(
  states: Map<string, ToggleState>,
  key: string,
  readerEmail: string,
  slug: string,
  stanzaIndex: string,
  answer: Answer,
) {
  const known = states.get(key);
  if (answer.status >= 200 && answer.status < 300) {
    const { added } = JSON.parse(answer.body) as { added: boolean };
    states.set(key, { isPresent: added, readerEmail, slug, stanzaIndex });
  } else if (answer.status === 0) {
    states.set(key, { isPresent: undefined, readerEmail, slug, stanzaIndex });
  } else if (!known) {
    states.set(key, { isPresent: false, readerEmail, slug, stanzaIndex });
  }
}

export function summarize(records: RequestRecord[], durationMs: number) {
  const answered = records.filter((record) => record.status !== 0);
  const latencies = answered.map((record) => record.ms).sort((a, b) => a - b);
  const percentile = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))] ?? 0;
  return {
    requests: records.length,
    answered: answered.length,
    writes: records.filter((record) => record.isWrite).length,
    acknowledgedWrites: answered.filter((r) => r.isWrite && r.status >= 200 && r.status < 300)
      .length,
    serverErrors: answered.filter((record) => record.status >= 500).length,
    unanswered: records.length - answered.length,
    requestsPerSecond: Math.round((answered.length / durationMs) * 1000),
    p50Ms: percentile(50),
    p99Ms: percentile(99),
    maxMs: latencies.at(-1) ?? 0,
  };
}

/** Keys and counts of the rows the workload may have written, read back from the database. */
async function readBack(handle: DatabaseHandle, result: WorkloadResult) {
  const { db } = handle;
  const userIds = new Map(
    (await db.select({ id: users.id, email: users.email }).from(users)).map((row) => [
      row.id,
      row.email,
    ]),
  );
  const poemSlugs = new Map(
    (await db.select({ id: poems.id, slug: poems.slug }).from(poems)).map((row) => [
      row.id,
      row.slug,
    ]),
  );
  const keyOf = (row: { userId: string | null; poemId: number; stanzaIndex: string }) =>
    `${userIds.get(row.userId ?? "")}|${poemSlugs.get(row.poemId)}|${row.stanzaIndex}`;
  const echoRows = await db
    .select({
      userId: echoes.userId,
      poemId: echoes.poemId,
      stanzaIndex: echoes.stanzaIndex,
      rows: count(),
    })
    .from(echoes)
    .where(isNull(echoes.sessionId))
    .groupBy(echoes.userId, echoes.poemId, echoes.stanzaIndex);
  const journalRows = await db
    .select({
      userId: journalEntries.userId,
      poemId: journalEntries.poemId,
      stanzaIndex: journalEntries.stanzaIndex,
      rows: count(),
    })
    .from(journalEntries)
    .groupBy(journalEntries.userId, journalEntries.poemId, journalEntries.stanzaIndex);
  const whisperRows = await db
    .select({ id: whispers.id, text: whispers.text })
    .from(whispers)
    .where(like(whispers.text, `load ${result.runId} %`));
  const requestedEmails = [...result.ledger.subscriptions.keys()];
  const subscriptionRows = requestedEmails.length
    ? await db
        .select({ email: subscriptions.email })
        .from(subscriptions)
        .where(inArray(subscriptions.email, requestedEmails))
    : [];
  return {
    echoes: new Map(echoRows.map((row) => [keyOf(row), Number(row.rows)])),
    journal: new Map(journalRows.map((row) => [keyOf(row), Number(row.rows)])),
    whispers: whisperRows,
    subscribedEmails: new Set(subscriptionRows.map((row) => row.email)),
  };
}

/**
 * Every way the database can disagree with the acknowledged writes, as readable lines (empty
 * when it holds exactly them): an acknowledged whisper missing or stored twice, a whisper no
 * request made, a missing subscription, an echo or journal entry whose state is not what the
 * last answer about it said, or any duplicate row.
 */
export async function verifyLedger(
  handle: DatabaseHandle,
  result: WorkloadResult,
): Promise<string[]> {
  const stored = await readBack(handle, result);
  const problems: string[] = [];
  const byText = new Map<string, number[]>();
  for (const row of stored.whispers)
    byText.set(row.text, [...(byText.get(row.text) ?? []), row.id]);
  for (const [text, ids] of byText) {
    if (!result.ledger.whispers.has(text)) problems.push(`whisper no request made: ${text}`);
    if (ids.length > 1) problems.push(`whisper stored ${ids.length} times: ${text}`);
  }
  for (const [text, id] of result.ledger.whispers) {
    if (id !== undefined && !byText.get(text)?.includes(id))
      problems.push(`acknowledged whisper missing: ${text}`);
  }
  for (const [email, isAcknowledged] of result.ledger.subscriptions) {
    if (isAcknowledged && !stored.subscribedEmails.has(email))
      problems.push(`acknowledged subscription missing: ${email}`);
  }
  const checkToggles = (
    kind: string,
    states: Map<string, ToggleState>,
    rows: Map<string, number>,
  ) => {
    for (const [key, rowCount] of rows)
      if (rowCount > 1) problems.push(`${kind} stored ${rowCount} times: ${key}`);
    for (const [key, state] of states) {
      if (state.isPresent === undefined) continue;
      const isStored = (rows.get(key) ?? 0) > 0;
      if (isStored !== state.isPresent)
        problems.push(
          `${kind} ${key}: last answer said ${state.isPresent ? "added" : "removed"}, database has ${isStored ? "it" : "none"}`,
        );
    }
  };
  checkToggles("echo", result.ledger.echoes, stored.echoes);
  checkToggles("journal entry", result.ledger.journal, stored.journal);
  return problems;
}

/** The demo poems, read back from an instance. */
export async function fetchPoems(baseUrl: string): Promise<LoadPoem[]> {
  const response = await fetch(`${baseUrl}/api/poems`);
  const list = (await response.json()) as Array<{ slug: string }>;
  return Promise.all(
    list.map(async ({ slug }) => {
      const poem = (await (await fetch(`${baseUrl}/api/poems/${slug}`)).json()) as {
        stanzas: unknown[];
      };
      return { slug, stanzaCount: poem.stanzas.length };
    }),
  );
}
