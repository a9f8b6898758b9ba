import { createHash, createHmac } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { getRequestListener } from "@hono/node-server";
import { eq, sql } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../common/endpoints.ts";
import {
  dailyCounts,
  dayVisitors,
  fediverseFollowers,
  mailRuns,
  visitSalts,
} from "../../server/db/schema.ts";
import { nextVisibilityChange } from "../../server/db/visibility.ts";
import { saveRemoteActor } from "../../server/fediverse/followers.ts";
import { poemObjectUrl, stanzaObjectUrl } from "../../server/fediverse/object-urls.ts";
import { createCachePolicy } from "../../server/http/cache-policy.ts";
import { createPageCache } from "../../server/http/page-cache.ts";
import { createPageViewCounter } from "../../server/http/page-views.ts";
import { VIEWS_PER_ADDRESS_HOUR, VISITORS_PER_ADDRESS } from "../../server/insights/address.ts";
import { digestClickToken } from "../../server/insights/digest-links.ts";
import { createLogger } from "../../server/logger.ts";
import { digestEmail } from "../../server/mail/digest.ts";
import { resolveSessionSecret } from "../../server/secrets.ts";
import { api, SITE_ORIGIN, wireAnswer } from "../helpers/api.ts";
import { drivers, rowsOf } from "../helpers/database.ts";
import { createPoem, createSubscribers } from "../helpers/factories.ts";
import { loadPageHandler } from "../helpers/page-handler.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/**
 * Counting without tracking (docs/decisions/049-counting-without-tracking.md): pages counted
 * where every request arrives (the page cache's hits and the app's renders), daily rows written
 * in batches, the day's salt, the reading beacon, link previews, the digest's click redirect and
 * the admin's two insight calls, on both drivers.
 */

const BROWSER =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15";
const MASTODON = "http.rb/5.1.1 (Mastodon/4.3.0; +https://mastodon.social/) Bot";

describe.each(drivers)("insights (%s)", (driver) => {
  let t: TestApp;
  let base: string;
  let closeServer: () => Promise<unknown>;
  let admin: string;
  /** The services' clock: the test moves it a day at a time. */
  let clock = new Date("2026-11-26T12:00:00Z");
  const logLines: string[] = [];
  const poemStanzas = ["one / a", "two / b", "three / c", "four / d", "five / e"];

  beforeAll(async () => {
    const { pageHandler, build } = await loadPageHandler();
    t = await createTestApp(driver, {
      pageHandler,
      now: () => clock,
      env: { TRUST_PROXY: "1", SITE_TIMEZONE: "UTC" },
      logDestination: { write: (line: string) => logLines.push(line) },
    });
    const cache = createPageCache({
      render: (pathWithQuery, audience) =>
        Promise.resolve(
          t.app.fetch(new Request(new URL(pathWithQuery, t.config.publicUrl)), {
            renderForAudience: audience,
          }),
        ),
      sharingOf: createCachePolicy({ routes: t.app.routes, build }),
      audienceOf: t.services.accounts.audienceOf,
      nextVisibilityChange: () => nextVisibilityChange(t.db, clock, t.config.siteTimezone),
      logger: createLogger("silent"),
    });
    // Wired as server/main.ts wires it: the counter sees every request before the cache does.
    const count = createPageViewCounter(t.services.insights, t.config);
    const listener = getRequestListener(t.app.fetch);
    const server = http.createServer((request, response) => {
      count(request, response);
      cache.serve(request, response, () => void listener(request, response));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    closeServer = () => new Promise((resolve) => server.close(resolve));
    await createPoem(t.db, { slug: "five-stanzas", title: "Five Stanzas", stanzas: poemStanzas });
    admin = await signIn(t, "poet@example.com", { admin: true });
  }, 120_000);

  afterAll(async () => {
    await closeServer?.();
    await t?.close();
  });

  /** A reader's page request: their address (behind TRUST_PROXY=1) and user agent. */
  const visit = (path: string, reader: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      redirect: "manual",
      headers: {
        "user-agent": BROWSER,
        "x-forwarded-for": reader,
        "sec-fetch-dest": "document",
        ...headers,
      },
    }).then(async (response) => {
      await response.arrayBuffer();
      return response;
    });

  async function summary(days = 7) {
    const response = await api(t.app, "GET", `/api/admin/insights?days=${days}`, {
      cookie: admin,
    });
    expect(response.status).toBe(200);
    return wireAnswer(endpoints.getInsights, response);
  }

  async function poemView(days = 7) {
    const response = await api(
      t.app,
      "GET",
      `/api/admin/insights/poems/five-stanzas?days=${days}`,
      {
        cookie: admin,
      },
    );
    expect(response.status).toBe(200);
    return wireAnswer(endpoints.getPoemInsights, response);
  }

  const today = () => clock.toISOString().slice(0, 10);
  const dayOf = (answer: Awaited<ReturnType<typeof summary>>, date: string) =>
    answer.daily.find((day) => day.date === date);

  it("counts a page view on a cache miss and a hit, and a reader once a day", async () => {
    const before = await summary();
    expect((await visit("/poetry/five-stanzas", "198.51.100.1")).status).toBe(200);
    expect((await visit("/poetry/five-stanzas", "198.51.100.1")).status).toBe(200);
    expect((await visit("/poetry/five-stanzas", "198.51.100.2")).status).toBe(200);
    const after = await summary();
    expect(after.totals.views - before.totals.views).toBe(3);
    expect(after.totals.visitors - before.totals.visitors).toBe(2);
    expect(after.poems).toContainEqual({
      slug: "five-stanzas",
      title: "Five Stanzas",
      views: 3,
      visitors: 2,
    });
    expect(dayOf(after, today())?.views).toBe(after.totals.views);
    expect(after.daily).toHaveLength(7);
  });

  it("groups where readers came from: search, fediverse, email, other sites, direct", async () => {
    await visit("/poetry", "198.51.100.10", { referer: "https://www.google.co.uk/search?q=x" });
    await visit("/poetry", "198.51.100.11", { referer: "https://mastodon.social/@someone/1" });
    await visit("/poetry?utm_source=digest", "198.51.100.12");
    await visit("/poetry", "198.51.100.13", { referer: "https://blog.example.org/post?id=9" });
    await visit("/poetry", "198.51.100.14");
    // A reader moving between the site's own pages came from nowhere new.
    await visit("/poetry", "198.51.100.15", { referer: `${t.config.publicUrl.origin}/` });
    const { sources } = await summary();
    const visitorsOf = (source: string) => sources.find((row) => row.source === source);
    expect(visitorsOf("search:google")).toMatchObject({ group: "search", visitors: 1 });
    expect(visitorsOf("fediverse:mastodon.social")).toMatchObject({
      group: "fediverse",
      visitors: 1,
    });
    expect(visitorsOf("email")).toMatchObject({ group: "email", visitors: 1 });
    expect(visitorsOf("site:blog.example.org")).toMatchObject({ group: "site", visitors: 1 });
    expect(visitorsOf("direct")?.group).toBe("direct");
    // Only the host is kept: no path or query of a referrer is anywhere.
    const kept = rowsOf(await t.db.execute(sql`select subject from daily_counts`));
    expect(kept.some((row) => String(row.subject).includes("search?q"))).toBe(false);
    expect(kept.some((row) => String(row.subject).includes("post?id"))).toBe(false);
  });

  it("does not count bots, prefetches, Sec-GPC, DNT, subresources, data requests or errors", async () => {
    const before = await summary();
    const reader = "198.51.100.20";
    await visit("/poetry/five-stanzas", reader, {
      "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    });
    await visit("/poetry/five-stanzas", reader, { "sec-purpose": "prefetch" });
    await visit("/poetry/five-stanzas", reader, { purpose: "prefetch" });
    await visit("/poetry/five-stanzas", reader, { "sec-gpc": "1" });
    await visit("/poetry/five-stanzas", reader, { dnt: "1" });
    await visit("/poetry/five-stanzas", reader, { "sec-fetch-dest": "iframe" });
    await visit("/poetry/five-stanzas.data", reader);
    await visit("/api/poems/five-stanzas", reader);
    await visit("/feed.xml", reader);
    expect((await visit("/poetry/no-such-poem", reader)).status).toBe(404);
    await fetch(`${base}/poetry/five-stanzas`, {
      method: "HEAD",
      headers: { "user-agent": BROWSER, "x-forwarded-for": reader },
    });
    const after = await summary();
    expect(after.totals).toEqual(before.totals);
  });

  it("counts a reading beacon per stanza and answers bad ones with 204 or 400, never 5xx", async () => {
    const beacon = (body: string, reader: string, headers: Record<string, string> = {}) =>
      api(t.app, "POST", "/api/insights/reading", {
        body,
        origin: SITE_ORIGIN,
        headers: {
          "content-type": "text/plain;charset=UTF-8",
          "user-agent": BROWSER,
          "x-forwarded-for": reader,
          ...headers,
        },
      });
    const before = await poemView();
    // A reading belongs to a visit: each reader's view of the poem is counted first.
    for (const reader of ["198.51.100.30", "198.51.100.31", "198.51.100.32", "198.51.100.34"]) {
      await visit("/poetry/five-stanzas", reader);
    }
    // Three readers read three, five and one of the five stanzas.
    expect(
      (await beacon('{"poem":"five-stanzas","reached":[0,1,2]}', "198.51.100.30")).status,
    ).toBe(204);
    expect(
      (await beacon('{"poem":"five-stanzas","reached":[0,1,2,3,4]}', "198.51.100.31")).status,
    ).toBe(204);
    expect((await beacon('{"poem":"five-stanzas","reached":[0]}', "198.51.100.32")).status).toBe(
      204,
    );
    expect((await beacon('{"poem":"five-stanzas","shared":3}', "198.51.100.32")).status).toBe(204);

    const bad = [
      ['{"poem":"no-such-poem","reached":[0]}', 204],
      ['{"poem":"five-stanzas","reached":[5]}', 400],
      ['{"poem":"five-stanzas","reached":[0, 9999]}', 400],
      ['{"poem":"five-stanzas","reached":[-1]}', 400],
      ['{"poem":"five-stanzas","reached":["0"]}', 400],
      ['{"poem":"five-stanzas","shared":7}', 400],
      ['{"poem":"five-stanzas"}', 400],
      ['{"poem":"five-stanzas","reached":[0],"reader":"x"}', 400],
      ["not json", 400],
      ["[1,2]", 400],
      ["null", 400],
      ["", 400],
      [
        `{"poem":"five-stanzas","reached":[${Array.from({ length: 1500 }, () => 0).join(",")}]}`,
        400,
      ],
    ] as const;
    for (const [body, status] of bad) {
      const response = await beacon(body, "198.51.100.33");
      expect(response.status, body.slice(0, 60)).toBe(status);
    }
    // An oversized body refused by its declared length, before it is read.
    const declared = `{"poem":"five-stanzas","reached":[${Array.from({ length: 1500 }, () => 0).join(",")}]}`;
    const refused = await beacon(declared, "198.51.100.33", {
      "content-length": String(declared.length),
    });
    expect(refused.status).toBe(400);
    // Asked not to be counted: answered, not counted.
    expect(
      (await beacon('{"poem":"five-stanzas","reached":[4]}', "198.51.100.34", { "sec-gpc": "1" }))
        .status,
    ).toBe(204);

    const after = await poemView();
    expect(after.readings - before.readings).toBe(3);
    const reached = after.stanzas.map(
      (stanza, i) => stanza.reached - (before.stanzas[i]?.reached ?? 0),
    );
    expect(reached).toEqual([3, 2, 2, 1, 1]);
    expect(after.stanzas[3]?.shares).toBe((before.stanzas[3]?.shares ?? 0) + 1);
    expect(after.stanzas[0]?.text).toBe("one / a");
  });

  it("rate-limits a flood of beacons from one address, not another reader", async () => {
    const send = (reader: string) =>
      api(t.app, "POST", "/api/insights/reading", {
        body: '{"poem":"no-such-poem","reached":[0]}',
        origin: SITE_ORIGIN,
        headers: { "user-agent": BROWSER, "x-forwarded-for": reader },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 65; i += 1) statuses.push((await send("198.51.100.40")).status);
    expect(statuses.slice(0, 60).every((status) => status === 204)).toBe(true);
    expect(statuses.slice(60).every((status) => status === 429)).toBe(true);
    expect((await send("198.51.100.41")).status).toBe(204);
  });

  it("counts a share-link visit and a platform's link preview for the stanza", async () => {
    const before = await poemView();
    await visit("/share/poem/five-stanzas?s=2", "198.51.100.50", {
      referer: "https://mastodon.social/@reader/2",
    });
    const card = await fetch(`${base}/og/stanza/five-stanzas/2.png`, {
      headers: { "user-agent": MASTODON },
    });
    expect(card.status).toBe(200);
    await card.arrayBuffer();
    // A person opening the picture is no preview.
    await (
      await fetch(`${base}/og/stanza/five-stanzas/2.png`, { headers: { "user-agent": BROWSER } })
    ).arrayBuffer();
    const after = await poemView();
    expect(after.stanzas[2]?.shares).toBe((before.stanzas[2]?.shares ?? 0) + 1);
    expect(after.stanzas[2]?.previews).toEqual({
      ...before.stanzas[2]?.previews,
      Mastodon: (before.stanzas[2]?.previews.Mastodon ?? 0) + 1,
    });
  });

  it("counts the fediverse's likes, replies and boosts, its followers, and their servers as a source", async () => {
    const ada = {
      actorUrl: "https://poets.example/users/ada",
      handle: "@ada@poets.example",
      name: "Ada",
      avatarUrl: null,
      profileUrl: "https://poets.example/@ada",
      server: "poets.example",
    };
    const poemId = poemObjectUrl(t.config.publicUrl, "five-stanzas").href;
    const stanzaId = stanzaObjectUrl(t.config.publicUrl, "five-stanzas", 1).href;
    const voices = t.services.fediverseReactions;
    const before = await poemView();
    expect(before.fediverse).toEqual({ likes: 0, boosts: 0, replies: 0 });
    expect(
      await voices.receiveLike(ada, {
        activityId: "https://poets.example/likes/1",
        object: poemId,
      }),
    ).toBe("stored");
    expect(
      await voices.receiveLike(ada, {
        activityId: "https://poets.example/likes/2",
        object: stanzaId,
      }),
    ).toBe("stored");
    expect(
      await voices.receiveReply(ada, {
        noteId: "https://poets.example/users/ada/statuses/1",
        url: "https://poets.example/@ada/1",
        inReplyTo: stanzaId,
        contentHtml: "<p>This one.</p>",
        published: new Date("2026-11-26T10:00:00Z"),
      }),
    ).toBe("stored");
    expect(
      await voices.receiveAnnounce(ada, {
        activityId: "https://poets.example/boosts/1",
        object: poemId,
      }),
    ).toBe("stored");
    const after = await poemView();
    expect(after.fediverse).toEqual({ likes: 1, boosts: 1, replies: 1 });
    expect(after.stanzas[1]?.fediverse).toEqual({ likes: 1, replies: 1 });
    expect(after.stanzas[1]?.echoes).toBe((before.stanzas[1]?.echoes ?? 0) + 1);
    expect(after.stanzas[1]?.whispers).toBe((before.stanzas[1]?.whispers ?? 0) + 1);
    expect(after.stanzas[0]?.fediverse).toEqual({ likes: 0, replies: 0 });

    // Before ada follows, her server is another site; after, it is the fediverse.
    await visit("/poetry", "198.51.100.60", { referer: "https://poets.example/@ada/1" });
    expect((await summary()).followers?.at(-1)?.count).toBe(0);
    await saveRemoteActor(t.db, {
      actorUrl: ada.actorUrl,
      handle: ada.handle,
      name: ada.name,
      avatarUrl: null,
      profileUrl: ada.profileUrl,
      inbox: `${ada.actorUrl}/inbox`,
      sharedInbox: "https://poets.example/inbox",
      publicKeyId: `${ada.actorUrl}#main-key`,
      server: "poets.example",
    });
    // Dated by the test's clock, as everything this file writes (docs/decisions/048).
    await t.db.insert(fediverseFollowers).values({
      actorId: ada.actorUrl,
      followId: "https://poets.example/follows/1",
      createdAt: clock,
    });
    await t.services.insights.refreshFollowerHosts();
    await visit("/poetry", "198.51.100.61", { referer: "https://poets.example/@ada/2" });
    const { sources, followers } = await summary();
    expect(sources).toContainEqual({ source: "site:poets.example", group: "site", visitors: 1 });
    expect(sources).toContainEqual({
      source: "fediverse:poets.example",
      group: "fediverse",
      visitors: 1,
    });
    expect(followers).toHaveLength(7);
    expect(followers?.at(-1)).toEqual({ date: "2026-11-26", count: 1 });
  });

  it("redirects a digest's links through a counted click, never anywhere else", async () => {
    const content = {
      featuredEmber: { text: "A small flame", date: "2026-11-23" },
      topEchoedStanzas: [],
      newPoems: [],
    };
    const [run] = await t.db
      .insert(mailRuns)
      .values({ subject: "This week", content, status: "sent" })
      .returning();
    if (!run) throw new Error("no run");
    const secret = resolveSessionSecret(t.config);
    const token = digestClickToken(secret, run.id, 0);

    const first = await api(t.app, "GET", `/api/digest/link/${token}`);
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe(
      `${t.config.publicUrl.origin}/poetry?utm_source=digest`,
    );
    await api(t.app, "GET", `/api/digest/link/${token}`);

    const forged = [
      `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`,
      // Links 0 and 1 are 'Read more poems' and the footer's link to the site: 2 is no link.
      digestClickToken(secret, run.id, 2),
      digestClickToken(secret, run.id + 1000, 0),
      digestClickToken("another secret", run.id, 0),
      "https:%2F%2Fevil.example",
      "1-0-",
    ];
    for (const altered of forged) {
      const response = await api(t.app, "GET", `/api/digest/link/${encodeURIComponent(altered)}`);
      expect(response.status, altered).toBe(404);
      expect(response.headers.get("location")).toBeNull();
    }
    const { digest } = await summary();
    // The same client's second click the same day is not another reader's.
    expect(digest.find((row) => row.runId === run.id)?.clicks).toEqual([
      { url: `${t.config.publicUrl.origin}/poetry`, count: 1 },
      { url: `${t.config.publicUrl.origin}/`, count: 0 },
    ]);
    const stored = rowsOf(await t.db.execute(sql`select * from digest_clicks`));
    expect(Object.keys(stored[0] ?? {}).sort()).toEqual(["clicks", "link", "run_id", "url"]);
  });

  it("sends every digest link through the redirect but the unsubscribe link", () => {
    const { html, text } = digestEmail(
      { name: "Ember Verse", poetName: null, publicUrl: t.config.publicUrl.toString() },
      {
        featuredEmber: { text: "A small flame", date: "2026-11-23" },
        topEchoedStanzas: [],
        newPoems: [
          {
            slug: "five-stanzas",
            title: "Five Stanzas",
            stanzas: poemStanzas,
          } as never,
        ],
      },
      {
        publicUrl: "http://localhost:3000",
        unsubscribeUrl: new URL("http://localhost:3000/unsubscribe?token=abc"),
        linkUrl: (position) => `http://localhost:3000/api/digest/link/9-${position}-sig`,
      },
    );
    expect(html).toContain('href="http://localhost:3000/api/digest/link/9-0-sig"');
    expect(html).toContain('href="http://localhost:3000/api/digest/link/9-1-sig"');
    expect(html).not.toContain('href="http://localhost:3000/poetry');
    expect(html).toContain('href="http://localhost:3000/unsubscribe?token=abc"');
    expect(text).toContain("Unsubscribe: http://localhost:3000/unsubscribe?token=abc");
  });

  it("sends a digest whose links are counted redirects, its unsubscribe link direct, and counts its subscribers", async () => {
    // Subscribed an hour before the services' clock, whatever today's date is.
    await createSubscribers(t.db, ["digest-reader@example.com"], {
      verifiedAt: new Date(clock.getTime() - 3_600_000),
    });
    const sent = await api(t.app, "POST", "/api/admin/digest/send", {
      body: { subject: "Counted links" },
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    expect(sent.status).toBe(201);
    const run = (await sent.json()) as { id: number };
    await t.services.digestSender.drain();
    const outbox = path.join(t.config.dataDir, "outbox");
    const files = fs.readdirSync(outbox).filter((file) => file.endsWith(".eml"));
    const mails = await Promise.all(
      files.map(async (file) => simpleParser(fs.readFileSync(path.join(outbox, file)))),
    );
    const mail = mails.find((one) => one.subject === "Counted links");
    const html = String(mail?.html ?? "");
    const links = [...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1] ?? "");
    const counted = links.filter((link) => link.includes("/api/digest/link/"));
    expect(counted.length).toBeGreaterThan(0);
    expect(links.filter((link) => !link.includes("/api/digest/link/"))).toEqual([
      expect.stringContaining("/unsubscribe?s="),
    ]);
    // No subscriber in a counted link: every subscriber of the run gets the same ones.
    for (const link of counted)
      expect(link).toMatch(new RegExp(`/api/digest/link/${run.id}-\\d+-`));
    const followed = await api(t.app, "GET", new URL(counted[0] ?? "").pathname);
    expect(followed.status).toBe(302);
    expect(followed.headers.get("location")).toContain("utm_source=digest");
    const { digest, subscribers } = await summary();
    const clicks = digest.find((row) => row.runId === run.id)?.clicks ?? [];
    expect(clicks.reduce((sum, click) => sum + click.count, 0)).toBe(1);
    expect(subscribers.at(-1)?.count).toBe(1);
  });

  it("counts a household's visitors per address and a reader's pace, whatever the user agents", async () => {
    const before = await summary();
    // Twenty user agents from one address, and eight from one IPv6 network's addresses.
    for (let i = 0; i < 20; i += 1) {
      await visit("/poetry/five-stanzas", "198.51.100.90", { "user-agent": `${BROWSER} R/${i}` });
    }
    for (let i = 0; i < 8; i += 1) {
      await visit("/poetry/five-stanzas", `2001:db8:5:6::${i + 1}`, {
        "user-agent": `${BROWSER} P/${i}`,
      });
    }
    const crowded = await summary();
    expect(crowded.totals.visitors - before.totals.visitors).toBe(2 * VISITORS_PER_ADDRESS);
    expect(crowded.totals.views - before.totals.views).toBe(2 * VISITORS_PER_ADDRESS);
    // One reader faster than any reader: views past the hour's pace are not counted.
    const fast = "198.51.100.91";
    for (let i = 0; i < VIEWS_PER_ADDRESS_HOUR + 15; i += 1) await visit("/about", fast);
    const paced = await summary();
    expect(paced.totals.views - crowded.totals.views).toBe(VIEWS_PER_ADDRESS_HOUR);
    expect(paced.totals.visitors - crowded.totals.visitors).toBe(1);
    // The next hour they count again, still one visitor today.
    clock = new Date(clock.getTime() + 3_600_000);
    await visit("/about", fast);
    const nextHour = await summary();
    expect(nextHour.totals.views - paced.totals.views).toBe(1);
    expect(nextHour.totals.visitors).toBe(paced.totals.visitors);
  });

  it("counts a reading only for a counted visit, once, a later beacon raising how far it reached", async () => {
    const send = (reader: string, body: string) =>
      api(t.app, "POST", "/api/insights/reading", {
        body,
        origin: SITE_ORIGIN,
        headers: { "user-agent": BROWSER, "x-forwarded-for": reader },
      });
    const before = await poemView();
    const grown = (after: typeof before) =>
      after.stanzas.map((stanza, i) => stanza.reached - (before.stanzas[i]?.reached ?? 0));
    // No view, no reading.
    for (let i = 0; i < 20; i += 1) {
      expect(
        (await send("198.51.100.95", '{"poem":"five-stanzas","reached":[0,1,2,3,4]}')).status,
      ).toBe(204);
    }
    expect((await poemView()).readings).toBe(before.readings);
    // One visit: twenty beacons are one reading, five presses of one stanza's Share one share.
    const reader = "198.51.100.96";
    await visit("/poetry/five-stanzas", reader);
    for (let i = 0; i < 20; i += 1) await send(reader, '{"poem":"five-stanzas","reached":[0,1]}');
    for (let i = 0; i < 5; i += 1) await send(reader, '{"poem":"five-stanzas","shared":1}');
    const once = await poemView();
    expect(once.readings - before.readings).toBe(1);
    expect(grown(once)).toEqual([1, 1, 0, 0, 0]);
    expect(once.stanzas[1]?.shares).toBe((before.stanzas[1]?.shares ?? 0) + 1);
    // The same visit's later beacon, after its reading reached the database.
    await send(reader, '{"poem":"five-stanzas","reached":[0,1,2,3,4]}');
    const further = await poemView();
    expect(further.readings - before.readings).toBe(1);
    expect(grown(further)).toEqual([1, 1, 1, 1, 1]);
    for (const stanza of further.stanzas) {
      expect(stanza.reached).toBeLessThanOrEqual(further.readings);
    }
    expect(further.readings).toBeLessThanOrEqual(further.visitors);
    expect(further.readToEnd).toBeLessThanOrEqual(1);
  });

  it("counts one digest click per address, run and link a day, none from a reader who asked not to be counted", async () => {
    const content = {
      featuredEmber: { text: "A small flame", date: "2026-11-23" },
      topEchoedStanzas: [],
      newPoems: [],
    };
    const [run] = await t.db
      .insert(mailRuns)
      .values({ subject: "Clicked", content, status: "sent", createdAt: clock })
      .returning();
    if (!run) throw new Error("no run");
    const token = digestClickToken(resolveSessionSecret(t.config), run.id, 0);
    const click = (reader: string, headers: Record<string, string> = {}) =>
      api(t.app, "GET", `/api/digest/link/${token}`, {
        headers: { "user-agent": BROWSER, "x-forwarded-for": reader, ...headers },
      });
    for (let i = 0; i < 10; i += 1) expect((await click("198.51.100.97")).status).toBe(302);
    expect((await click("198.51.100.98")).status).toBe(302);
    for (const asked of [{ "sec-gpc": "1" }, { dnt: "1" }] as Array<Record<string, string>>) {
      const followed = await click("198.51.100.99", asked);
      expect(followed.status).toBe(302);
      expect(followed.headers.get("location")).toContain("/poetry");
    }
    const { digest } = await summary();
    expect(digest.find((row) => row.runId === run.id)?.clicks[0]?.count).toBe(2);
  });

  it("counts a page under its one path only: every other spelling is a redirect to it", async () => {
    const before = await summary();
    const variants = [
      "/poetry/five-stanzas/",
      "/POETRY/five-stanzas",
      "/poetry/%66ive-stanzas",
      "/poetry//five-stanzas",
      "//poetry/five-stanzas",
    ];
    for (const [n, variant] of variants.entries()) {
      const answer = await visit(`${variant}?s=1`, `198.51.100.${110 + n}`);
      expect(answer.status, variant).toBe(301);
      expect(answer.headers.get("location"), variant).toBe("/poetry/five-stanzas?s=1");
    }
    const home = await visit("//", "198.51.100.120");
    expect(home.status).toBe(301);
    expect(home.headers.get("location")).toBe("/");
    const after = await summary();
    expect(after.totals).toEqual(before.totals);
    const subjects = rowsOf(
      await t.db.execute(sql`select distinct subject from daily_counts where metric = 'views'`),
    ).map((row) => String(row.subject));
    for (const subject of subjects.filter(Boolean)) {
      expect(subject, subject).toMatch(/^\/[a-z0-9/-]*$/);
      expect(subject.endsWith("/") && subject !== "/", subject).toBe(false);
    }
  });

  it("keeps no row linking two pages of one reader, nor a hash the day's salt alone can make", async () => {
    const reader = "198.51.100.100";
    const agent = `${BROWSER} Trail/1`;
    await visit("/about", reader, { "user-agent": agent });
    await visit("/poetry/five-stanzas", reader, { "user-agent": agent });
    await t.services.insights.flush();
    const hashes = (await t.db.select().from(dayVisitors)).map((row) => row.hash);
    expect(new Set(hashes).size).toBe(hashes.length);
    const [salt] = await t.db.select().from(visitSalts).where(eq(visitSalts.day, today()));
    if (!salt) throw new Error("no salt");
    const identity = `${reader}\n${agent}`;
    const scopes = ["", "/about", "/poetry/five-stanzas"];
    const fromSaltAlone = [
      createHash("sha256")
        .update(`${salt.salt}\u0000${identity}\u0000${t.config.publicUrl.origin}`)
        .digest("base64url")
        .slice(0, 27),
      ...scopes.map((scope) =>
        createHash("sha256")
          .update(`${salt.salt}\u0000${scope}\u0000${identity}`)
          .digest("base64url")
          .slice(0, 27),
      ),
      ...scopes.map((scope) =>
        createHmac("sha256", salt.salt)
          .update(`${scope}\u0000${identity}`)
          .digest("base64url")
          .slice(0, 27),
      ),
    ];
    for (const guess of fromSaltAlone) expect(hashes).not.toContain(guess);
    // With the site's secret as well, each page's hash is there, and no two are the same.
    const key = createHmac("sha256", resolveSessionSecret(t.config))
      .update(`day-visitors\u0000${salt.day}\u0000${salt.salt}`)
      .digest("base64url");
    const withSecret = scopes.map((scope) =>
      createHash("sha256")
        .update(`${key}\u0000${scope}\u0000${identity}`)
        .digest("base64url")
        .slice(0, 27),
    );
    for (const hash of withSecret) expect(hashes).toContain(hash);
  });

  it("makes a salt per day: the same reader is one visitor a day, a new one the next; yesterday's salt goes", async () => {
    clock = new Date("2026-11-27T09:00:00Z");
    const reader = "198.51.100.60";
    await visit("/about", reader);
    await visit("/about", reader);
    await t.services.insights.flush();
    const [firstSalt] = await t.db.select().from(visitSalts);
    expect(firstSalt?.day).toBe("2026-11-27");
    const dayOne = await summary();
    expect(dayOf(dayOne, "2026-11-27")).toMatchObject({ views: 2, visitors: 1 });

    clock = new Date("2026-11-28T09:00:00Z");
    await visit("/about", reader);
    await t.services.insights.flush();
    const salts = await t.db.select().from(visitSalts);
    expect(salts.map((salt) => salt.day)).toEqual(["2026-11-28"]);
    expect(salts[0]?.salt).not.toBe(firstSalt?.salt);
    const days = rowsOf(
      await t.db.execute(sql`select distinct day::text as day from day_visitors`),
    );
    expect(days.map((row) => row.day)).toEqual(["2026-11-28"]);
    const dayTwo = await summary();
    expect(dayOf(dayTwo, "2026-11-28")).toMatchObject({ views: 1, visitors: 1 });
    // Yesterday's count stays; only what could tell readers apart went.
    expect(dayOf(dayTwo, "2026-11-27")).toMatchObject({ views: 2, visitors: 1 });
  });

  it("keeps no client address or user agent in any table or log line", async () => {
    const address = "203.0.113.77";
    const agent = "Mozilla/5.0 (X11; Linux x86_64) UniqueReaderAgent/9.9";
    await visit("/poetry/five-stanzas", address, {
      "user-agent": agent,
      referer: "https://search.example.net/?q=reader",
    });
    await api(t.app, "POST", "/api/insights/reading", {
      body: '{"poem":"five-stanzas","reached":[0]}',
      origin: SITE_ORIGIN,
      headers: { "user-agent": agent, "x-forwarded-for": address },
    });
    const dumpAll = async () => {
      const tables = rowsOf(
        await t.db.execute(
          sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
        ),
      );
      expect(tables.length).toBeGreaterThan(20);
      let dump = "";
      for (const { table_name: name } of tables) {
        const rows = await t.db.execute(sql.raw(`select * from "${name}"`));
        dump += JSON.stringify(rowsOf(rows));
      }
      return dump;
    };
    await t.services.insights.flush();
    const duringTheDay = await dumpAll();
    expect(duringTheDay).toContain("five-stanzas");
    for (const secret of [address, agent, "UniqueReaderAgent", "q=reader"]) {
      expect(duringTheDay).not.toContain(secret);
      expect(logLines.join("\n")).not.toContain(secret);
    }
    clock = new Date(clock.getTime() + 86_400_000);
    await t.services.insights.flush();
    const nextDay = await dumpAll();
    for (const secret of [address, agent]) expect(nextDay).not.toContain(secret);
    const counted = await t.db.select().from(dailyCounts);
    expect(counted.length).toBeGreaterThan(0);
  });

  it("answers the poem view for an unknown poem with 404 and a bad window with 400", async () => {
    const missing = await api(t.app, "GET", "/api/admin/insights/poems/no-such-poem", {
      cookie: admin,
    });
    expect(missing.status).toBe(404);
    const badWindow = await api(t.app, "GET", "/api/admin/insights?days=12", { cookie: admin });
    expect(badWindow.status).toBe(400);
    const reader = await signIn(t, "reader@example.com");
    expect((await api(t.app, "GET", "/api/admin/insights", { cookie: reader })).status).toBe(403);
    expect((await api(t.app, "GET", "/api/admin/insights")).status).toBe(401);
  });
});
