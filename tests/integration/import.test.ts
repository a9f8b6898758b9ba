import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../common/endpoints.ts";
import type { ImportJob } from "../../common/schemas/import.ts";
import { importJobs, importRedirects, poems, subscriptions, tags } from "../../server/db/schema.ts";
import type { ParsedImport } from "../../server/import/types.ts";
import { createLogger } from "../../server/logger.ts";
import { type AdminActor, requireAdmin } from "../../server/services/actor.ts";
import { createImportService } from "../../server/services/import.ts";
import { api, SITE_ORIGIN, wireAnswer } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem, createSubscribers } from "../helpers/factories.ts";
import { loadPageHandler } from "../helpers/page-handler.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/** The services' clock: the week the imports run in. */
const NOW = new Date("2026-06-10T12:00:00Z");

const poem = (
  sourceId: string,
  fields: Partial<ParsedImport["poems"][number]> = {},
): ParsedImport["poems"][number] => ({
  sourceId,
  title: `Poem ${sourceId}`,
  slug: `poem-${sourceId}`,
  stanzas: [`first line of ${sourceId} / second line`, "  an indented line / and the last"],
  tags: [],
  state: "published",
  publishAt: new Date("2019-04-01T08:00:00Z"),
  coverUrl: null,
  coverAlt: null,
  oldPaths: [`/${sourceId}/`],
  notes: [],
  ...fields,
});

/** An export as the parsers hand it over (server/import/types.ts). */
const ghostExport = (): ParsedImport => ({
  source: "ghost",
  poems: [
    poem("g1", {
      title: "Salt Road",
      slug: "salt-road",
      tags: ["Sea", "salt"],
      oldPaths: ["/salt-road/", "/about/"],
      coverUrl: "https://images.example/salt.jpg",
      coverAlt: "A road by the sea",
    }),
    poem("g2", { title: "Kept Drafts", state: "draft", publishAt: null }),
    poem("g3", {
      title: "Next Spring",
      state: "scheduled",
      publishAt: new Date("2027-03-01T09:00:00Z"),
    }),
    poem("g4", { title: "Lighthouse Keeper", publishAt: new Date("2026-06-08T09:00:00Z") }),
    poem("g5", { title: "Left Out" }),
    poem("g6", { title: "Tidewater", tags: ["Sea"] }),
  ],
  subscribers: [
    {
      email: "Reader.One@example.com",
      name: "One",
      receivingEmail: true,
      subscribedAt: new Date("2020-01-01T00:00:00Z"),
      skipReason: null,
    },
    {
      email: "reader.two@example.com",
      name: null,
      receivingEmail: true,
      subscribedAt: null,
      skipReason: null,
    },
    {
      email: "left@example.com",
      name: null,
      receivingEmail: true,
      subscribedAt: null,
      skipReason: null,
    },
    {
      email: "quiet@example.com",
      name: null,
      receivingEmail: false,
      subscribedAt: null,
      skipReason: "Not receiving email there",
    },
    {
      email: "bounced@example.com",
      name: null,
      receivingEmail: false,
      subscribedAt: null,
      skipReason: "Email bounced there",
    },
  ],
  skipped: [{ sourceId: "p9", title: "Episode 4", reason: "A podcast episode, not a poem" }],
});

describe.each(drivers)("import on %s (docs/decisions/052-the-import-job.md)", (driver) => {
  let t: TestApp;
  let cookie: string;
  let admin: AdminActor;

  const count = async (table: typeof poems | typeof subscriptions | typeof tags) =>
    (await t.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]?.n ?? 0;
  const confirm = async (id: number, body: object) => {
    const response = await api(t.app, "POST", `/api/admin/import/jobs/${id}/confirm`, {
      cookie,
      origin: SITE_ORIGIN,
      body: { exclude: [], fetchCovers: false, subscribersConsented: false, ...body },
    });
    expect(response.status).toBe(200);
    return wireAnswer(endpoints.confirmImport, response);
  };
  const runJob = async (id: number): Promise<ImportJob> => {
    for (let rounds = 0; rounds < 100; rounds++) {
      const [job] = await t.db.select().from(importJobs).where(eq(importJobs.id, id));
      if (job?.state !== "importing") return t.services.imports.getJob(admin, id);
      await t.services.imports.step();
    }
    throw new Error("the import did not finish");
  };

  beforeAll(async () => {
    const { pageHandler } = await loadPageHandler();
    t = await createTestApp(driver, {
      pageHandler,
      now: () => NOW,
      importOptions: { poemBatchSize: 2, subscriberBatchSize: 2, leaseSeconds: 1 },
    });
    cookie = await signIn(t, "poet@example.com", { admin: true });
    admin = requireAdmin(
      await t.services.accounts.resolveActor(
        new Request(`${SITE_ORIGIN}/`, { headers: { cookie } }),
      ),
    );
    await createPoem(t.db, { slug: "salt-road", title: "Salt Road (mine)" });
    await createSubscribers(t.db, ["reader.two@example.com"], { unsubscribed: true });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it("previews without writing a poem, tag or subscriber, with clashing slugs suffixed", async () => {
    const before = [await count(poems), await count(tags), await count(subscriptions)];
    const preview = await t.services.imports.previewParsed(admin, "ghost.json", ghostExport());
    expect([await count(poems), await count(tags), await count(subscriptions)]).toEqual(before);
    expect(preview.job.state).toBe("preview");
    const salt = preview.poems.find((item) => item.sourceId === "g1");
    expect(salt).toMatchObject({
      slug: "salt-road-2",
      clashedWith: "salt-road",
      tags: ["Sea", "salt"],
    });
    expect(salt?.oldPaths).toEqual(["/salt-road/"]);
    expect(preview.subscribers).toEqual({
      found: 5,
      receiving: 3,
      new: 2,
      skipped: [
        { reason: "Not receiving email there", count: 1 },
        { reason: "Email bounced there", count: 1 },
      ],
    });
    expect(preview.skipped).toEqual(ghostExport().skipped);
  });

  it("imports what the poet kept, as history: dates, drafts, schedules, tags, search, no digest", async () => {
    const preview = await t.services.imports.previewParsed(admin, "ghost.json", ghostExport());
    await confirm(preview.job.id, { exclude: ["g5"] });
    const job = await runJob(preview.job.id);
    expect(job).toMatchObject({
      state: "done",
      poemsSelected: 5,
      poemsImported: 5,
      subscribersImported: 0,
    });

    const rows = await t.db.select().from(poems).where(sql`${poems.importedAt} is not null`);
    const bySlug = new Map(rows.map((row) => [row.slug, row]));
    expect([...bySlug.keys()].sort()).toEqual([
      "poem-g2",
      "poem-g3",
      "poem-g4",
      "poem-g6",
      "salt-road-2",
    ]);
    expect(bySlug.get("salt-road-2")).toMatchObject({
      publishAt: new Date("2019-04-01T08:00:00Z"),
      draft: false,
      coverUrl: "https://images.example/salt.jpg",
      coverAlt: "A road by the sea",
      stanzas: ["first line of g1 / second line", "  an indented line / and the last"],
    });
    expect(bySlug.get("poem-g2")?.draft).toBe(true);
    expect(bySlug.get("poem-g3")?.publishAt).toEqual(new Date("2027-03-01T09:00:00Z"));
    // "Sea" and "salt" made once each, whatever their case in later poems.
    expect(
      (await t.db.select({ name: tags.name }).from(tags)).map((tag) => tag.name).sort(),
    ).toEqual(["Sea", "salt"]);

    const search = await api(t.app, "GET", "/api/search?q=lighthouse");
    expect((await search.json()).poems.map((hit: { slug: string }) => hit.slug)).toContain(
      "poem-g4",
    );
    const digest = await wireAnswer(
      endpoints.getDigestContent,
      await api(t.app, "GET", "/api/admin/digest/content", { cookie }),
    );
    // Published two days before the digest's week ends, yet history: not announced as new.
    expect(digest.newPoems.map((item) => item.slug)).not.toContain("poem-g4");
  });

  it("adds nothing twice when the same export comes again", async () => {
    const before = await count(poems);
    const preview = await t.services.imports.previewParsed(admin, "ghost.json", ghostExport());
    expect(
      preview.poems.filter((item) => item.alreadyImported).map((item) => item.sourceId),
    ).toEqual(["g1", "g2", "g3", "g4", "g6"]);
    await confirm(preview.job.id, { exclude: ["g5"] });
    const job = await runJob(preview.job.id);
    expect(job).toMatchObject({ state: "done", poemsImported: 0, poemsAlreadyImported: 5 });
    expect(await count(poems)).toBe(before);
  });

  it("resumes exactly where a stopped instance left off", async () => {
    const many: ParsedImport = {
      source: "files",
      poems: Array.from({ length: 9 }, (_, at) => poem(`r${at}`, { tags: ["Resumed"] })),
      subscribers: [],
      skipped: [],
    };
    const before = await count(poems);
    const preview = await t.services.imports.previewParsed(admin, "poems.zip", many);
    await confirm(preview.job.id, {});
    await t.services.imports.step();
    await t.services.imports.step();
    const [halfway] = await t.db.select().from(importJobs).where(eq(importJobs.id, preview.job.id));
    expect(halfway).toMatchObject({ poemCursor: 4, poemsImported: 4, state: "importing" });
    expect(await count(poems)).toBe(before + 4);

    // The first instance stops holding its claim; another one (a restart) takes the job once
    // the claim's lease has run out, and writes only what is left.
    const restarted = createImportService({
      db: t.db,
      config: t.config,
      logger: createLogger("silent"),
      now: () => NOW,
      ownsDatabase: false,
      contentChanges: t.services.contentChanges,
      options: { poemBatchSize: 2, leaseSeconds: 1 },
    });
    expect(await restarted.step()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    while ((await restarted.step()) > 0) {
      const [job] = await t.db.select().from(importJobs).where(eq(importJobs.id, preview.job.id));
      if (job?.state === "done") break;
    }
    expect(await restarted.getJob(admin, preview.job.id)).toMatchObject({
      state: "done",
      poemsImported: 9,
    });
    expect(await count(poems)).toBe(before + 9);
  });

  it("answers an old address with a 301 to the poem on any host, never for a page of the site", async () => {
    const moved = await t.app.request("http://old-blog.example/salt-road/");
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe("/poetry/salt-road-2");
    const bare = await t.app.request("/salt-road");
    expect(bare.headers.get("location")).toBe("/poetry/salt-road-2");
    const about = await t.app.request("/about/");
    expect(about.status).not.toBe(301);
    expect((await t.app.request("/")).status).toBe(200);
    expect((await t.app.request("/never-was-here/")).status).toBe(404);

    const redirects = await wireAnswer(
      endpoints.listImportRedirects,
      await api(t.app, "GET", "/api/admin/import/redirects", { cookie }),
    );
    const salt = redirects.find((redirect) => redirect.path === "/salt-road");
    expect(salt).toMatchObject({ poemSlug: "salt-road-2", poemTitle: "Salt Road" });
    expect(redirects.some((redirect) => redirect.path.startsWith("/about"))).toBe(false);
    const removed = await api(t.app, "DELETE", `/api/admin/import/redirects/${salt?.id}`, {
      cookie,
      origin: SITE_ORIGIN,
    });
    expect(removed.status).toBe(204);
    expect((await t.app.request("/salt-road/")).status).toBe(404);
  });

  it("answers WordPress's /?p= on the home page and leaves the home page as it was", async () => {
    const wordpress: ParsedImport = {
      source: "wordpress",
      poems: [
        poem("42", {
          title: "Post Forty Two",
          slug: "forty-two",
          oldPaths: ["/2018/05/06/forty-two/", "/?p=42"],
        }),
      ],
      subscribers: [],
      skipped: [],
    };
    const preview = await t.services.imports.previewParsed(admin, "site.xml", wordpress);
    await runJob((await confirm(preview.job.id, {})).id);
    const moved = await t.app.request("/?p=42");
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe("/poetry/forty-two");
    expect((await t.app.request("/2018/05/06/forty-two/")).headers.get("location")).toBe(
      "/poetry/forty-two",
    );
    expect((await t.app.request("/?p=43")).status).toBe(200);
  });

  it("imports subscribers only with the poet's word on consent, confirmed and marked, existing ones untouched", async () => {
    const readersOnly = (): ParsedImport => ({ ...ghostExport(), poems: [] });
    const without = await t.services.imports.previewParsed(admin, "members.csv", readersOnly());
    const notConsented = await runJob((await confirm(without.job.id, {})).id);
    expect(notConsented).toMatchObject({
      state: "done",
      subscribersImported: 0,
      subscribersToImport: 0,
    });
    expect(await count(subscriptions)).toBe(1);

    const withConsent = await t.services.imports.previewParsed(admin, "members.csv", readersOnly());
    const job = await runJob(
      (await confirm(withConsent.job.id, { subscribersConsented: true, exclude: [] })).id,
    );
    expect(job).toMatchObject({
      subscribersImported: 2,
      subscribersExisting: 1,
      subscribersSkipped: 2,
    });
    const rows = await t.db.select().from(subscriptions).orderBy(subscriptions.email);
    expect(rows.map((row) => [row.email, row.verified, row.unsubscribed])).toEqual([
      ["left@example.com", true, false],
      ["reader.one@example.com", true, false],
      ["reader.two@example.com", true, true],
    ]);
    const one = rows.find((row) => row.email === "reader.one@example.com");
    expect(one?.consentSource).toMatch(/^ghost export \(members\.csv\)/);
    expect(one?.importedAt).toEqual(NOW);
    expect(one?.createdAt).toEqual(new Date("2020-01-01T00:00:00Z"));
    expect(one?.verificationDueAt).toBeNull();
    expect(rows.find((row) => row.email === "reader.two@example.com")?.consentSource).toBeNull();
  });

  it("refuses a file it cannot read with a 400 naming it, and one over the limit with a 413, writing nothing", async () => {
    const jobsBefore = (await t.db.select().from(importJobs)).length;
    const garbled = await api(t.app, "POST", "/api/admin/import/preview?fileName=notes.pdf", {
      cookie,
      origin: SITE_ORIGIN,
      body: new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]),
      headers: { "Content-Type": "application/octet-stream" },
    });
    expect(garbled.status).toBe(400);
    expect((await garbled.json()).message).toContain("notes.pdf");
    const huge = await api(t.app, "POST", "/api/admin/import/preview?fileName=huge.zip", {
      cookie,
      origin: SITE_ORIGIN,
      body: new Uint8Array(8),
      headers: { "Content-Type": "application/zip", "Content-Length": String(60 * 1024 * 1024) },
    });
    expect(huge.status).toBe(413);
    expect((await huge.json()).message).toContain("huge.zip is over the 50 MB limit");
    expect((await t.db.select().from(importJobs)).length).toBe(jobsBefore);
    expect(
      await t.db.select().from(importRedirects).where(eq(importRedirects.path, "/notes")),
    ).toEqual([]);
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
