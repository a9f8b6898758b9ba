import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { count } from "drizzle-orm";
import { openDatabase } from "../server/db/client.ts";
import { fediverseFollowers, remoteAccounts, whispers } from "../server/db/schema.ts";
import { actorKeyPairs } from "../server/fediverse/keys.ts";
import { markPoemsAsHistory } from "../server/fediverse/publishing.ts";
import { startActivityPubPeer } from "../tests/helpers/activitypub-peer.ts";
import { createPoem, ensureTags } from "../tests/helpers/factories.ts";
import { startServer } from "../tests/helpers/server.ts";

/**
 * `npm run bench:federation` (docs/product/performance.md), on the production build and the
 * embedded database:
 * - Outbound: one poem saved published fans out to BENCH_INBOXES (2,000) followers, each on its
 *   own shared inbox of a loopback sink in its own process (scripts/inbox-sink.ts, 202 to all),
 *   signed; timed from the save until every inbox has it, and every inbox must have it once.
 *   Meanwhile autocannon reads a cached poem page; its rate is compared with its idle rate.
 * - Inbound: BENCH_INBOUND (1,000) signed replies from one remote actor (its key cached after the
 *   first) POSTed to the site's shared inbox, timed until all are answered, then counted as
 *   stored whispers. The server's CPU time per reply (Linux /proc) is reported beside the rate:
 *   on a shared machine the rate follows the neighbours' load, the CPU per reply does not.
 * Writes bench-results/federation.json.
 */
const INBOXES = Number(process.env.BENCH_INBOXES ?? 2_000);
const INBOUND = Number(process.env.BENCH_INBOUND ?? 1_000);
const CONNECTIONS = 10;

/** CPU milliseconds a process has used (user + system), from /proc; null off Linux. */
function cpuMsOf(pid: number | undefined): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / 100 : null;
  } catch {
    return null;
  }
}
const IDLE_SECONDS = 5;

const sink = spawn(process.execPath, ["scripts/inbox-sink.ts"], {
  stdio: ["ignore", "pipe", "inherit"],
});
const sinkPort = await new Promise<number>((resolve) =>
  sink.stdout.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
);
const sinkUrl = `http://localhost:${sinkPort}`;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ev-bench-federation-"));
const seed = await openDatabase({ kind: "pglite", dataDir });
await seed.migrate();
await actorKeyPairs(seed.db);
const actors = Array.from({ length: INBOXES }, (_, n) => ({
  actorUrl: `${sinkUrl}/users/reader${n}`,
  handle: `@reader${n}@server${n}.localhost`,
  inbox: `${sinkUrl}/users/reader${n}/inbox`,
  sharedInbox: `${sinkUrl}/server${n}/inbox`,
  server: `server${n}.localhost`,
}));
for (let start = 0; start < actors.length; start += 500) {
  const slice = actors.slice(start, start + 500);
  await seed.db.insert(remoteAccounts).values(slice);
  await seed.db
    .insert(fediverseFollowers)
    .values(slice.map(({ actorUrl }) => ({ actorId: actorUrl })));
}
// The page read during the fan-out: published long ago, history, so it is not sent itself.
const [tag] = await ensureTags(seed.db, ["Benchmark"]);
const idle = await createPoem(seed.db, {
  slug: "read-during-fan-out",
  publishAt: new Date(Date.now() - 86_400_000),
  tagNames: ["Benchmark"],
});
await markPoemsAsHistory(seed.db, [idle.id]);
await seed.close();

const app = await startServer({
  DATA_DIR: dataDir,
  DEMO_CONTENT: "false",
  LOG_LEVEL: "warn",
  FEDIVERSE_ALLOW_PRIVATE_ADDRESSES: "true",
  // One remote server sends every inbound activity: its rate limit is not what is measured.
  RATE_LIMIT_SCALE: "1000000",
});
const peer = await startActivityPubPeer();
try {
  const { stdout } = await app.cli("login-link", "bench@example.com", "--admin");
  const signedIn = await fetch(stdout.trim(), { redirect: "manual" });
  const cookie = signedIn.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const pageUrl = `${app.url}/poetry/${idle.slug}`;
  if ((await fetch(pageUrl)).status !== 200) throw new Error("the poem page does not answer 200");

  await autocannon({ url: pageUrl, connections: CONNECTIONS, duration: 2 });
  const idleRun = await autocannon({
    url: pageUrl,
    connections: CONNECTIONS,
    duration: IDLE_SECONDS,
  });
  const idleRate = idleRun.requests.total / IDLE_SECONDS;

  const counts = async (): Promise<Record<string, number>> =>
    (await fetch(`${sinkUrl}/counts`)).json();
  const duringStarted = performance.now();
  let during: autocannon.Instance | undefined;
  const duringResult = new Promise<autocannon.Result>((resolve, reject) => {
    during = autocannon(
      { url: pageUrl, connections: CONNECTIONS, duration: 120 },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
  const started = performance.now();
  const saved = await fetch(`${app.url}/api/admin/poems`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: app.url, "Content-Type": "application/json" },
    body: JSON.stringify({
      title: "Fanned out",
      slug: "fanned-out",
      stanzas: ["one poem / to two thousand servers", "signed, each once"],
      tagIds: [tag?.id],
    }),
  });
  if (saved.status !== 201) throw new Error(`saving the poem answered ${saved.status}`);
  let received: Record<string, number> = {};
  const deadline = started + 120_000;
  while (Object.keys(received).length < INBOXES && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    received = await counts();
  }
  const fanOutMs = performance.now() - started;
  during?.stop();
  const duringRun = await duringResult;
  const duringRate = duringRun.requests.total / ((performance.now() - duringStarted) / 1000);
  // Time for a second copy to arrive, were there one.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  received = await counts();
  const inboxesOnce = actors.filter(
    ({ sharedInbox }) => received[new URL(sharedInbox).pathname] === 1,
  ).length;
  const posts = Object.values(received).reduce((sum, n) => sum + n, 0);

  // Inbound: replies to the page's first stanza, from one actor, 16 in flight at a time.
  const stanzaUrl = `${app.url}/share/poem/${idle.slug}?s=0`;
  const reply = (n: number) => {
    const noteId = peer.newId("alice", "statuses");
    return {
      id: `${noteId}/activity`,
      type: "Create",
      actor: peer.actorUrl("alice"),
      to: ["https://www.w3.org/ns/activitystreams#Public"],
      object: {
        id: noteId,
        type: "Note",
        attributedTo: peer.actorUrl("alice"),
        inReplyTo: stanzaUrl,
        content: `<p>reply ${n}</p>`,
        to: ["https://www.w3.org/ns/activitystreams#Public"],
      },
    };
  };
  // The first one fetches and caches the actor's key; the run is timed from the second on.
  const first = await peer.send(`${app.url}/fediverse/inbox`, reply(0));
  if (first.status >= 300) throw new Error(`the first reply answered ${first.status}`);
  let next = 1;
  const statuses: number[] = [];
  const cpuBefore = cpuMsOf(app.process.pid);
  const inboundStarted = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let n = next++; n < INBOUND; n = next++) {
        statuses.push((await peer.send(`${app.url}/fediverse/inbox`, reply(n))).status);
      }
    }),
  );
  const inboundMs = performance.now() - inboundStarted;
  const cpuAfter = cpuMsOf(app.process.pid);
  const inboundCpuMs =
    cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / (INBOUND - 1);
  await app.stop();
  const stored = await openDatabase({ kind: "pglite", dataDir });
  const [whisperCount] = await stored.db.select({ n: count() }).from(whispers);
  await stored.close();

  const result = {
    inboxes: INBOXES,
    inboxesWithExactlyOne: inboxesOnce,
    postsReceived: posts,
    fanOutSeconds: Number((fanOutMs / 1000).toFixed(1)),
    pageIdleRate: Math.round(idleRate),
    pageRateDuringFanOut: Math.round(duringRate),
    pageRateRatio: Number((duringRate / idleRate).toFixed(2)),
    inboundSent: INBOUND - 1,
    inboundAccepted: statuses.filter((status) => status < 300).length,
    inboundPerSecond: Math.round(((INBOUND - 1) / inboundMs) * 1000),
    inboundServerCpuMsEach: inboundCpuMs === null ? null : Number(inboundCpuMs.toFixed(2)),
    whispersStored: whisperCount?.n ?? 0,
  };
  process.stdout.write(
    `federation: ${result.inboxesWithExactlyOne} of ${INBOXES} inboxes got the Create exactly once ` +
      `(${posts} POSTs) in ${result.fanOutSeconds} s; poem page ${result.pageRateDuringFanOut}/s ` +
      `during the fan-out vs ${result.pageIdleRate}/s idle (${result.pageRateRatio}×); inbound ` +
      `${result.inboundAccepted} of ${result.inboundSent} signed replies accepted at ` +
      `${result.inboundPerSecond}/s (server CPU ${result.inboundServerCpuMsEach} ms each), ` +
      `${result.whispersStored} whispers stored\n`,
  );
  fs.mkdirSync("bench-results", { recursive: true });
  fs.writeFileSync("bench-results/federation.json", `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await peer.close();
  await app.stop();
  sink.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
