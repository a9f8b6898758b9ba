import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { strToU8, zipSync } from "fflate";
import type { ServerBuild } from "react-router";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { endpoints } from "../../common/endpoints.ts";
import type { ImportJob, ImportPreview } from "../../common/schemas/import.ts";
import { type AdminActor, requireAdmin } from "../../server/core/actor.ts";
import {
  fediversePoemState,
  importJobs,
  poems,
  subscriptions,
  tags,
} from "../../server/db/schema.ts";
import { markPoemsAsHistory } from "../../server/fediverse/publishing.ts";
import { createImportService } from "../../server/import/import.ts";
import { createLogger } from "../../server/logger.ts";
import { api, SITE_ORIGIN, wireAnswer } from "../helpers/api.ts";
import { createMp3Frames } from "../helpers/audio-files.ts";
import { startCachedServer } from "../helpers/cached-server.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem, createSubscribers } from "../helpers/factories.ts";
import { plainFilesZip } from "../helpers/import-files.ts";
import { loadPageHandler } from "../helpers/page-handler.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/** The services' clock: the week after the Ghost site's Harbour Lights came out. */
const NOW = new Date("2023-10-05T12:00:00Z");
const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/import");
const fixture = (name: string) => new Uint8Array(fs.readFileSync(path.join(FIXTURES, name)));

/** A podcast episode's recording, as the old site's file host serves it. */
const EPISODE = createMp3Frames(40);

/** The old site's file host: one cover and one episode's recording, and nothing else. */
let coverHost: http.Server;
let coverOrigin = "";
beforeAll(async () => {
  const png = await sharp({
    create: { width: 800, height: 600, channels: 3, background: "#335577" },
  })
    .png()
    .toBuffer();
  coverHost = http.createServer((request, response) => {
    if (request.url === "/cover.png")
      response.writeHead(200, { "Content-Type": "image/png" }).end(png);
    else if (request.url === "/episode.mp3")
      response.writeHead(200, { "Content-Type": "audio/mpeg" }).end(EPISODE);
    // A recording larger than a reading may be: its size is refused before its bytes are read.
    else if (request.url === "/long-episode.mp3")
      response
        .writeHead(200, { "Content-Type": "audio/mpeg", "Content-Length": String(26 * 2 ** 20) })
        .write(EPISODE);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => coverHost.listen(0, "127.0.0.1", resolve));
  coverOrigin = `http://covers.example:${(coverHost.address() as AddressInfo).port}`;
});
afterAll(() => {
  coverHost?.close();
});

/** A Ghost export with two covers on the old site's image host, one of them gone. */
const ghostWithCovers = () =>
  strToU8(
    JSON.stringify({
      db: [
        {
          meta: { exported_on: 1701338400000, version: "5.74.3" },
          data: {
            posts: ["kept", "gone"].map((name, at) => ({
              id: `cover-${name}`,
              title: `Cover ${name}`,
              slug: `cover-${name}`,
              html: `<p>A poem whose cover is ${name}.</p>`,
              feature_image: `${coverOrigin}/${name === "kept" ? "cover.png" : "missing.png"}`,
              type: "post",
              status: "published",
              published_at: `2021-0${at + 1}-01T00:00:00.000Z`,
            })),
            tags: [],
            posts_tags: [],
          },
        },
      ],
    }),
  );

/**
 * A Substack export of podcast episodes with text, each with its audio at `audio[n]`: posts.csv as
 * Substack writes it, and each post's HTML.
 */
const substackEpisodes = (firstId: number, audio: string[]) => {
  const posts = audio.map((url, at) => ({ id: `${firstId + at}.episode-${firstId + at}`, url }));
  return zipSync({
    "posts.csv": strToU8(
      [
        "post_id,post_date,is_published,email_sent_at,inbox_sent_at,type,audience,title,subtitle,podcast_url",
        ...posts.map(
          ({ id, url }) =>
            `${id},2022-03-0${(Number.parseInt(id, 10) % 9) + 1}T08:00:00.000Z,true,,,podcast,everyone,Episode ${id},,${url}`,
        ),
      ].join("\n"),
    ),
    ...Object.fromEntries(
      posts.map(({ id }) => [`posts/${id}.html`, strToU8(`<p>Read aloud: episode ${id}.</p>`)]),
    ),
  });
};

describe.each(drivers)("import on %s (docs/decisions/052-the-import-job.md)", (driver) => {
  let t: TestApp;
  let cookie: string;
  let admin: AdminActor;
  let build: ServerBuild;

  const count = async (
    table: typeof poems | typeof subscriptions | typeof tags | typeof importJobs,
  ) => (await t.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]?.n ?? 0;
  const upload = (fileName: string, bytes: Uint8Array, source?: string) =>
    api(
      t.app,
      "POST",
      `/api/admin/import/preview?${new URLSearchParams({ fileName, ...(source ? { source } : {}) })}`,
      {
        cookie,
        origin: SITE_ORIGIN,
        body: bytes,
        headers: { "Content-Type": "application/octet-stream" },
      },
    );
  const preview = async (
    fileName: string,
    bytes: Uint8Array = fixture(fileName),
  ): Promise<ImportPreview> => {
    const response = await upload(fileName, bytes);
    expect(response.status).toBe(201);
    const answer = await wireAnswer(endpoints.previewImport, response);
    return {
      ...answer,
      job: { ...answer.job, createdAt: new Date(answer.job.createdAt), finishedAt: null },
      poems: answer.poems.map((poem) => ({
        ...poem,
        publishAt: poem.publishAt ? new Date(poem.publishAt) : null,
      })),
    };
  };
  const confirm = async (id: number, body: object = {}) => {
    const response = await api(t.app, "POST", `/api/admin/import/jobs/${id}/confirm`, {
      cookie,
      origin: SITE_ORIGIN,
      body: { exclude: [], fetchCovers: false, subscribersConsented: false, ...body },
    });
    expect(response.status).toBe(200);
    return wireAnswer(endpoints.confirmImport, response);
  };
  const runJob = async (id: number): Promise<ImportJob> => {
    for (let rounds = 0; rounds < 200; rounds++) {
      const [job] = await t.db.select().from(importJobs).where(eq(importJobs.id, id));
      if (job?.state !== "importing") return t.services.imports.getJob(admin, id);
      await t.services.imports.step();
    }
    throw new Error("the import did not finish");
  };
  const importFile = async (fileName: string, body: object = {}) => {
    const shown = await preview(fileName);
    return runJob((await confirm(shown.job.id, body)).id);
  };

  beforeAll(async () => {
    const loaded = await loadPageHandler();
    const { pageHandler } = loaded;
    build = loaded.build;
    t = await createTestApp(driver, {
      pageHandler,
      now: () => NOW,
      importOptions: { poemBatchSize: 2, subscriberBatchSize: 2 },
      urlCheck: {
        resolveHost: async () => ["127.0.0.1"],
        isAllowedAddress: (address) => address === "127.0.0.1",
      },
    });
    cookie = await signIn(t, "poet@example.com", { admin: true });
    admin = requireAdmin(
      await t.services.accounts.resolveActor(
        new Request(`${SITE_ORIGIN}/`, { headers: { cookie } }),
      ),
    );
    await createPoem(t.db, {
      slug: "harbour-lights",
      title: "Harbour Lights (written here)",
      publishAt: new Date("2023-01-01T00:00:00Z"),
    });
    await createPoem(t.db, {
      slug: "this-weeks-own",
      title: "This Week's Own",
      publishAt: new Date("2023-10-03T00:00:00Z"),
    });
    await createSubscribers(t.db, ["ben@example.org"], { unsubscribed: true });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it("previews a Ghost export without writing a poem, tag or subscriber, a taken slug suffixed", async () => {
    const before = [await count(poems), await count(tags), await count(subscriptions)];
    const shown = await preview("ghost-5-export.json");
    expect([await count(poems), await count(tags), await count(subscriptions)]).toEqual(before);
    expect(shown.job).toMatchObject({ state: "preview", source: "ghost" });
    expect(
      shown.poems.map((poem) => [poem.title, poem.slug, poem.clashedWith, poem.state]),
    ).toEqual([
      ["Harbour Lights", "harbour-lights-2", "harbour-lights", "published"],
      ["Frost", "frost", null, "draft"],
      ["Orchard", "orchard", null, "scheduled"],
    ]);
    expect(shown.poems[0]?.stanzas[1]).toBe("  Nobody answers. /   Everybody is home.");
    expect(shown.skipped.map((item) => item.reason)).toEqual([
      "A page, not a post",
      "It has no text",
    ]);
  });

  it("imports the poems kept, as history: dates, drafts, schedules, tags, search; not in the digest", async () => {
    const shown = await preview("ghost-5-export.json");
    const job = await runJob(
      (await confirm(shown.job.id, { exclude: [shown.poems[1]?.sourceId] })).id,
    );
    expect(job).toMatchObject({ state: "done", poemsSelected: 2, poemsImported: 2 });

    const rows = await t.db.select().from(poems).where(sql`${poems.importedAt} is not null`);
    expect(rows.map((row) => row.slug).sort()).toEqual(["harbour-lights-2", "orchard"]);
    expect(rows.find((row) => row.slug === "harbour-lights-2")).toMatchObject({
      publishAt: new Date("2023-10-02T08:30:00.000Z"),
      draft: false,
      importedAt: NOW,
      coverUrl: "https://images.unsplash.com/photo-1500000000000?w=2000",
      coverProvider: "url",
      coverAlt: "The harbour at dusk, its lights reflected",
    });
    expect(rows.find((row) => row.slug === "orchard")?.publishAt).toEqual(
      new Date("2030-03-21T06:00:00.000Z"),
    );
    expect(
      (await t.db.select({ name: tags.name }).from(tags)).map((tag) => tag.name).sort(),
    ).toEqual(["Night", "Sea"]);

    const search = await api(t.app, "GET", "/api/search?q=harbour");
    expect((await search.json()).poems.map((hit: { slug: string }) => hit.slug)).toContain(
      "harbour-lights-2",
    );
    const digest = await wireAnswer(
      endpoints.getDigestContent,
      await api(t.app, "GET", "/api/admin/digest/content", { cookie }),
    );
    // Both came out this week; only the one written here is news.
    expect(digest.newPoems.map((poem) => poem.slug)).toEqual(["this-weeks-own"]);
    // Nor are they news to fediverse followers: history from the transaction that made them.
    const federated = await t.db
      .select({ poemId: fediversePoemState.poemId, state: fediversePoemState.state })
      .from(fediversePoemState);
    expect(federated.map((row) => row.state)).toEqual(["history", "history"]);
    expect(federated.map((row) => row.poemId).sort()).toEqual(rows.map((row) => row.id).sort());
  });

  it("adds nothing twice when the same export comes again", async () => {
    const before = await count(poems);
    const shown = await preview("ghost-5-export.json");
    expect(shown.poems.map((poem) => poem.alreadyImported)).toEqual([true, false, true]);
    const job = await runJob((await confirm(shown.job.id)).id);
    expect(job).toMatchObject({ state: "done", poemsImported: 1, poemsAlreadyImported: 2 });
    expect(await count(poems)).toBe(before + 1);
    const again = await importFile("ghost-5-export.json");
    expect(again).toMatchObject({ poemsImported: 0, poemsAlreadyImported: 3 });
    expect(await count(poems)).toBe(before + 1);
  });

  it("resumes exactly where a stopped instance left off", async () => {
    const before = await count(poems);
    const shown = await preview("nine.zip", plainFilesZip({ poems: 9, subscribers: 0 }));
    await confirm(shown.job.id);
    await t.services.imports.step();
    await t.services.imports.step();
    const [halfway] = await t.db.select().from(importJobs).where(eq(importJobs.id, shown.job.id));
    expect(halfway).toMatchObject({ poemCursor: 4, poemsImported: 4, state: "importing" });
    expect(await count(poems)).toBe(before + 4);

    // The first instance stops; another (a restart) leaves the job alone while the stopped
    // one's lease holds, takes it once the lease has run out, and writes only what is left. The
    // lease is on the database's clock (docs/decisions/038-which-clock.md), so its running out
    // is written there rather than waited for: however slow the batches were, the lease holds
    // until then.
    const restarted = createImportService({
      db: t.db,
      config: t.config,
      logger: createLogger("silent"),
      now: () => NOW,
      ownsDatabase: false,
      contentChanges: t.services.contentChanges,
      markPoemsAsHistory,
      options: { poemBatchSize: 2 },
    });
    expect(await restarted.step()).toBe(0);
    await t.db
      .update(importJobs)
      .set({ leaseUntil: sql`now() - interval '1 second'` })
      .where(eq(importJobs.id, shown.job.id));
    for (let rounds = 0; rounds < 10; rounds++) await restarted.step();
    expect(await restarted.getJob(admin, shown.job.id)).toMatchObject({
      state: "done",
      poemsImported: 9,
      poemsAlreadyImported: 0,
    });
    expect(await count(poems)).toBe(before + 9);
  });

  it("answers an old address with a 301 to the poem on any host; never a page of the site", async () => {
    const moved = await t.app.request("http://old-blog.example/harbour-lights/");
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe("/poetry/harbour-lights-2");
    expect((await t.app.request("/harbour-lights")).headers.get("location")).toBe(
      "/poetry/harbour-lights-2",
    );
    // The site's own About page, at its one path (docs/decisions/056-one-page-one-path.md).
    const aboutSlash = await t.app.request("/about/");
    expect(aboutSlash.status).toBe(301);
    expect(aboutSlash.headers.get("location")).toBe("/about");
    const about = await t.app.request("/about");
    expect(about.status).toBe(200);
    expect(await about.text()).toContain("<title>About");
    expect((await t.app.request("/never-was-here/")).status).toBe(404);

    const redirects = await wireAnswer(
      endpoints.listImportRedirects,
      await api(t.app, "GET", "/api/admin/import/redirects", { cookie }),
    );
    const harbour = redirects.find((redirect) => redirect.path === "/harbour-lights");
    expect(harbour).toMatchObject({ poemSlug: "harbour-lights-2", poemTitle: "Harbour Lights" });
    const removed = await api(t.app, "DELETE", `/api/admin/import/redirects/${harbour?.id}`, {
      cookie,
      origin: SITE_ORIGIN,
    });
    expect(removed.status).toBe(204);
    expect((await t.app.request("/harbour-lights/")).status).toBe(404);
  });

  it("answers WordPress's dated links and /?p= and leaves the home page as it was", async () => {
    await importFile("wordpress-6.xml");
    const moved = await t.app.request("/?p=12");
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe("/poetry/low-tide");
    expect((await t.app.request("/2023/06/01/midnight-ferry/")).headers.get("location")).toBe(
      "/poetry/midnight-ferry",
    );
    expect((await t.app.request("/?p=99")).status).toBe(200);
    expect((await t.app.request("/")).status).toBe(200);

    // Behind the page cache, as in production: the home page is kept and answered from memory,
    // and /?p= is never kept, so it keeps redirecting.
    const cached = await startCachedServer(t, build);
    try {
      for (let round = 0; round < 3; round++) {
        const home = await fetch(`${cached.base}/`);
        expect(home.status).toBe(200);
        await home.text();
        const old = await fetch(`${cached.base}/?p=12`, { redirect: "manual" });
        expect(old.status).toBe(301);
        expect(old.headers.get("location")).toBe("/poetry/low-tide");
      }
      await vi.waitUntil(() => cached.cache.stats().entries === 1);
      const before = cached.cache.stats().hits;
      await (await fetch(`${cached.base}/`)).text();
      expect(cached.cache.stats().hits).toBe(before + 1);
    } finally {
      await cached.close();
    }
  });

  it("imports subscribers only with the poet's word on consent: confirmed, marked, existing ones untouched", async () => {
    const listed = await importFile("ghost-members.csv");
    expect(listed).toMatchObject({ state: "done", subscribersImported: 0, subscribersToImport: 0 });
    expect(await count(subscriptions)).toBe(1);

    const shown = await preview("ghost-members.csv");
    expect(shown.subscribers).toEqual({
      found: 4,
      receiving: 2,
      new: 1,
      skipped: [
        { reason: "They were not subscribed to emails on Ghost", count: 1 },
        { reason: "They were deleted on Ghost", count: 1 },
      ],
    });
    const job = await runJob((await confirm(shown.job.id, { subscribersConsented: true })).id);
    expect(job).toMatchObject({
      subscribersImported: 1,
      subscribersExisting: 1,
      subscribersSkipped: 2,
    });
    const rows = await t.db.select().from(subscriptions).orderBy(subscriptions.email);
    expect(rows.map((row) => [row.email, row.verified, row.unsubscribed])).toEqual([
      ["ada@example.com", true, false],
      ["ben@example.org", true, true],
    ]);
    expect(rows[0]).toMatchObject({
      consentSource: "Ghost export (ghost-members.csv), consent confirmed by the poet",
      importedAt: NOW,
      createdAt: new Date("2023-09-30T11:00:00.000Z"),
      verificationDueAt: null,
    });
    expect(rows[1]?.consentSource).toBeNull();
  });

  it("brings a Substack export: its posts' /p/ links answer, its readers come with consent", async () => {
    const folder = path.join(FIXTURES, "substack");
    const entries: Record<string, Uint8Array> = {};
    for (const name of fs.readdirSync(folder, { recursive: true, encoding: "utf8" })) {
      const file = path.join(folder, name);
      if (fs.statSync(file).isFile()) entries[name] = new Uint8Array(fs.readFileSync(file));
    }
    const shown = await preview("substack-export.zip", zipSync(entries));
    // A podcast episode with text is offered, left out until the poet chooses it.
    const episode = shown.poems.find((poem) => poem.title === "Reading The Kettle aloud");
    expect(episode).toMatchObject({ chosen: false, audioUrl: expect.stringMatching(/^https:/) });
    const leftOut = shown.poems.filter((poem) => !poem.chosen).map((poem) => poem.sourceId);
    const job = await runJob(
      (await confirm(shown.job.id, { subscribersConsented: true, exclude: leftOut })).id,
    );
    expect(job).toMatchObject({
      state: "done",
      poemsImported: 3,
      subscribersImported: 2,
      subscribersExisting: 1,
      subscribersSkipped: 2,
    });
    const moved = await t.app.request("https://poet.example/p/the-kettle");
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe("/poetry/the-kettle");
  });

  it("copies covers into our storage; a cover that cannot be fetched is a note, the poem still imported", async () => {
    const shown = await preview("covers.json", ghostWithCovers());
    const job = await runJob((await confirm(shown.job.id, { fetchCovers: true })).id);
    expect(job).toMatchObject({ state: "done", poemsImported: 2 });
    expect(job.notes).toEqual([
      expect.stringMatching(
        /^“Cover gone”: its cover http:\/\/covers\.example:\d+\/missing\.png could not be fetched \(The server answered 404\); imported without it$/,
      ),
    ]);
    const [kept] = await t.db.select().from(poems).where(eq(poems.slug, "cover-kept"));
    expect(kept).toMatchObject({
      coverProvider: "object-storage",
      coverWidth: 800,
      coverHeight: 600,
    });
    const stored = await t.app.request(kept?.coverUrl ?? "");
    expect(stored.status).toBe(200);
    expect(stored.headers.get("content-type")).toBe("image/png");
    const [gone] = await t.db.select().from(poems).where(eq(poems.slug, "cover-gone"));
    expect(gone?.coverUrl).toBeNull();
  });

  it("copies a podcast episode's recording as its reading, alone in its batch; one that cannot be copied stays an https link, or is left out, with a note", async () => {
    const tlsOrigin = coverOrigin.replace("http:", "https:");
    const shown = await preview(
      "episodes.zip",
      substackEpisodes(301, [
        `${coverOrigin}/episode.mp3`,
        `${tlsOrigin}/episode.mp3`,
        `${coverOrigin}/gone.mp3`,
        `${coverOrigin}/long-episode.mp3`,
        `${coverOrigin}/cover.png`,
      ]),
    );
    expect(shown.poems.map((poem) => [poem.audioUrl, poem.chosen])).toEqual([
      [`${coverOrigin}/episode.mp3`, false],
      [`${tlsOrigin}/episode.mp3`, false],
      [`${coverOrigin}/gone.mp3`, false],
      [`${coverOrigin}/long-episode.mp3`, false],
      [`${coverOrigin}/cover.png`, false],
    ]);
    expect(shown.poems[1]?.notes).toContain(
      "A podcast episode on Substack: its text comes in as the poem, its audio as the poem's reading, copied to this site with the covers (else it stays a link to Substack's file)",
    );
    await confirm(shown.job.id, { fetchCovers: true });
    await t.services.imports.step();
    const [first] = await t.db.select().from(importJobs).where(eq(importJobs.id, shown.job.id));
    expect(first?.poemCursor).toBe(1);
    const job = await runJob(shown.job.id);
    expect(job).toMatchObject({ state: "done", poemsImported: 5 });
    // The file host speaks plain HTTP, so https:// to it fails as an unreachable host would.
    expect(job.notes).toEqual([
      `“Episode 302.episode-302”: its reading ${tlsOrigin}/episode.mp3 could not be copied (The recording could not be loaded); it stays a link to the old site`,
      `“Episode 303.episode-303”: its reading ${coverOrigin}/gone.mp3 could not be copied (The server answered 404), and a link that is not https cannot play here; imported without it`,
      `“Episode 304.episode-304”: its reading ${coverOrigin}/long-episode.mp3 could not be copied (The recording is larger than 25 MB, the most a reading here may be), and a link that is not https cannot play here; imported without it`,
      `“Episode 305.episode-305”: its reading ${coverOrigin}/cover.png could not be copied (Not an MP3, M4A, AAC, Ogg or WAV recording), and a link that is not https cannot play here; imported without it`,
    ]);
    const readings = await t.db
      .select({ slug: poems.slug, audioUrl: poems.audioUrl })
      .from(poems)
      .where(sql`${poems.slug} like 'episode-30%'`)
      .orderBy(poems.slug);
    expect(readings).toEqual([
      { slug: "episode-301", audioUrl: expect.stringMatching(/^\/objects\/audio\/[0-9a-f-]{36}$/) },
      { slug: "episode-302", audioUrl: `${tlsOrigin}/episode.mp3` },
      { slug: "episode-303", audioUrl: null },
      { slug: "episode-304", audioUrl: null },
      { slug: "episode-305", audioUrl: null },
    ]);
    const copied = await t.app.request(readings[0]?.audioUrl ?? "");
    expect(copied.status).toBe(200);
    expect(copied.headers.get("content-type")).toBe("audio/mpeg");
    expect(new Uint8Array(await copied.arrayBuffer())).toEqual(EPISODE);

    // Files not copied: an https reading stays a link, an http one cannot play here.
    const linked = await preview(
      "linked.zip",
      substackEpisodes(311, [`${tlsOrigin}/episode.mp3`, `${coverOrigin}/episode.mp3`]),
    );
    const kept = await runJob((await confirm(linked.job.id, { fetchCovers: false })).id);
    expect(kept.notes).toEqual([
      `“Episode 312.episode-312”: its reading ${coverOrigin}/episode.mp3 is not https, so it cannot play here as a link; imported without it`,
    ]);
    expect(
      await t.db
        .select({ audioUrl: poems.audioUrl })
        .from(poems)
        .where(sql`${poems.slug} like 'episode-31%'`)
        .orderBy(poems.slug),
    ).toEqual([{ audioUrl: `${tlsOrigin}/episode.mp3` }, { audioUrl: null }]);
  });

  it("refuses bad files with a 400 naming the file and line (413 over the limit), writing nothing", async () => {
    const before = [await count(importJobs), await count(poems), await count(subscriptions)];
    const refusal = async (fileName: string, bytes: Uint8Array) => {
      const response = await upload(fileName, bytes);
      expect(response.status).toBe(400);
      return ((await response.json()) as { message: string }).message;
    };
    expect(await refusal("scan.pdf", strToU8("%PDF-1.7\n%âãÏÓ\n1 0 obj\n"))).toContain("scan.pdf");
    expect(
      await refusal(
        "members.csv",
        strToU8('email,name,subscribed_to_emails\na@example.com,"Ann,true\n'),
      ),
    ).toMatch(/members\.csv, line \d/);
    expect(
      await refusal("poems.zip", zipSync({ "../../etc/evil.md": strToU8("title\n\nline") })),
    ).toContain("poems.zip");
    const bomb = zipSync({ "poems/big.md": new Uint8Array(30 * 1024 * 1024) }, { level: 9 });
    expect(await refusal("bomb.zip", bomb)).toContain("bomb.zip");
    const entities = `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/"><channel><item><title>&xxe;</title></item></channel></rss>`;
    expect(await refusal("site.xml", strToU8(entities))).toContain("site.xml");

    const huge = await api(t.app, "POST", "/api/admin/import/preview?fileName=huge.zip", {
      cookie,
      origin: SITE_ORIGIN,
      body: new Uint8Array(8),
      headers: { "Content-Length": String(60 * 1024 * 1024) },
    });
    expect(huge.status).toBe(413);
    expect((await huge.json()).message).toBe("huge.zip is over the 50 MB limit for an import");
    expect([await count(importJobs), await count(poems), await count(subscriptions)]).toEqual(
      before,
    );
  });

  it("is the admin's alone", async () => {
    const reader = await signIn(t, "reader@example.com");
    const response = await api(t.app, "POST", "/api/admin/import/preview?fileName=a.zip", {
      cookie: reader,
      origin: SITE_ORIGIN,
      body: new Uint8Array([1]),
    });
    expect(response.status).toBe(403);
  });
});
