import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../common/endpoints.ts";
import type { ImportJob, ImportPreview } from "../../common/schemas/import.ts";
import { type AdminActor, requireAdmin } from "../../server/core/actor.ts";
import {
  importItems,
  importJobs,
  poems,
  poemVersions,
  subscriptions,
} from "../../server/db/schema.ts";
import { api, SITE_ORIGIN, wireAnswer } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { loadPageHandler } from "../helpers/page-handler.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/**
 * Real exports through the real app (tests/fixtures/import/real/SOURCES.md): an item is one poem
 * per source site (docs/decisions/060-an-imported-poem-is-one-per-site.md).
 */
const NOW = new Date("2026-11-28T12:00:00Z");
const REAL = path.resolve(import.meta.dirname, "../fixtures/import/real");
const real = (name: string) => new Uint8Array(fs.readFileSync(path.join(REAL, name)));

describe.each(drivers)("real exports on %s", (driver) => {
  let t: TestApp;
  let cookie: string;
  let admin: AdminActor;

  const preview = async (
    fileName: string,
    bytes: Uint8Array,
    source?: string,
  ): Promise<ImportPreview> => {
    const query = new URLSearchParams({ fileName, ...(source ? { source } : {}) });
    const response = await api(t.app, "POST", `/api/admin/import/preview?${query}`, {
      cookie,
      origin: SITE_ORIGIN,
      body: bytes,
      headers: { "Content-Type": "application/octet-stream" },
    });
    expect(response.status).toBe(201);
    return (await wireAnswer(endpoints.previewImport, response)) as unknown as ImportPreview;
  };
  const run = async (shown: ImportPreview, body: object = {}): Promise<ImportJob> => {
    const response = await api(t.app, "POST", `/api/admin/import/jobs/${shown.job.id}/confirm`, {
      cookie,
      origin: SITE_ORIGIN,
      body: { exclude: [], fetchCovers: false, subscribersConsented: true, ...body },
    });
    expect(response.status).toBe(200);
    for (let rounds = 0; rounds < 200; rounds++) {
      const [job] = await t.db.select().from(importJobs).where(eq(importJobs.id, shown.job.id));
      if (job?.state !== "importing") return t.services.imports.getJob(admin, shown.job.id);
      await t.services.imports.step();
    }
    throw new Error("the import did not finish");
  };
  const slugOf = async (title: string) =>
    (await t.db.select({ slug: poems.slug }).from(poems).where(eq(poems.title, title)))[0]?.slug;

  beforeAll(async () => {
    const { pageHandler } = await loadPageHandler();
    t = await createTestApp(driver, { pageHandler, now: () => NOW });
    cookie = await signIn(t, "poet@example.com", { admin: true });
    admin = requireAdmin(
      await t.services.accounts.resolveActor(
        new Request(`${SITE_ORIGIN}/`, { headers: { cookie } }),
      ),
    );
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it("two WordPress sites whose posts share a number never merge; the first keeps /?p=4", async () => {
    const first = await run(
      await preview("valid-wxr-1.0.xml", real("wordpress/valid-wxr-1.0.xml")),
    );
    expect(first).toMatchObject({ state: "done", poemsImported: 3 });
    const shown = await preview("posts-only.xml", real("wordpress/mg-wp-xml-posts-only.xml"));
    const basic = shown.poems.find((poem) => poem.title === "Basic Post");
    expect(basic).toMatchObject({ site: "example.com", alreadyImported: false, chosen: true });
    expect(basic?.oldPaths).toEqual(["/blog/basic-post.html", "/2013/06/07/basic-post.html/"]);
    expect(basic?.notRedirected).toEqual([
      { path: "/?p=4", reason: "“Alpha post”, imported earlier, keeps this address" },
    ]);
    const second = await run(shown);
    expect(second).toMatchObject({ state: "done", poemsImported: 3, poemsAlreadyImported: 0 });
    expect(second.notes).toContain(
      "“Basic Post”: its old address /?p=4 is not redirected. “Alpha post”, imported earlier, keeps this address",
    );
    // Both post 4s are here, each at its own page; the old /?p=4 still leads to the first site's.
    expect(await slugOf("Alpha post")).toBe("alpha-post");
    expect(await slugOf("Basic Post")).toBe("basic-posthtml");
    const page = await t.app.request("/?p=4");
    expect(page.status).toBe(301);
    expect(page.headers.get("location")).toBe("/poetry/alpha-post");
    const moved = await t.app.request("/blog/basic-post.html");
    expect(moved.headers.get("location")).toBe("/poetry/basic-posthtml");
  });

  it("the same site exported twice adds nothing; a later export of it marks the edited poem and updates it when chosen", async () => {
    const again = await preview("valid-wxr-1.0.xml", real("wordpress/valid-wxr-1.0.xml"));
    expect(again.poems.map((poem) => [poem.alreadyImported, poem.changed, poem.chosen])).toEqual([
      [true, false, false],
      [true, false, false],
      [true, false, false],
    ]);
    // small-export.xml is the same localhost site (WXR 1.1): its "Hello world!" is the same
    // post (the same guid), edited since.
    const later = await preview("small-export.xml", real("wordpress/small-export.xml"));
    const hello = later.poems.find((poem) => poem.sourceId === "http://localhost/?p=1");
    expect(hello).toMatchObject({ alreadyImported: true, changed: true, chosen: false });
    const before = await t.db.select({ n: sql<number>`count(*)::int` }).from(poems);
    const job = await run(later, { update: ["http://localhost/?p=1"] });
    expect(job).toMatchObject({ state: "done", poemsUpdated: 1, poemsAlreadyImported: 0 });
    const after = await t.db.select({ n: sql<number>`count(*)::int` }).from(poems);
    // Five new posts of the same site, and Hello world! updated in place, not added again.
    expect((after[0]?.n ?? 0) - (before[0]?.n ?? 0)).toBe(5);
    const [updated] = await t.db
      .select({ id: poems.id, publishAt: poems.publishAt })
      .from(poems)
      .where(eq(poems.slug, "hello-world"));
    expect(updated?.publishAt).toEqual(new Date("2011-01-18T07:40:14Z"));
    const versions = await t.db
      .select({ title: poemVersions.title })
      .from(poemVersions)
      .where(eq(poemVersions.poemId, updated?.id ?? 0));
    expect(versions).toEqual([]);
    const rows = await t.db.select().from(importItems).where(eq(importItems.site, "localhost"));
    expect(rows).toHaveLength(8);
  });

  it("a Ghost 0.x export is dated from its millisecond dates, not the import", async () => {
    const job = await run(await preview("export-003.json", real("ghost/export-003.json")));
    expect(job.poemsImported).toBe(1);
    const [poem] = await t.db
      .select({ publishAt: poems.publishAt })
      .from(poems)
      .where(eq(poems.slug, "welcome-to-ghost"));
    expect(poem?.publishAt).toEqual(new Date(1388318310783));
  });

  it("an old address that is one of this site's own (a Ghost post at /themes/) is listed as not redirected, with why", async () => {
    const exported = {
      db: [
        {
          meta: { exported_on: 1701338400000, version: "5.74.3" },
          data: {
            posts: [
              {
                id: "65173b2f2b1d3c0001a0b0f1",
                uuid: "0d7c3a52-8d5e-4c1b-9a53-7e0b9d2f1a11",
                title: "Themes",
                slug: "themes",
                html: "<p>A poem about the themes of the sea.</p>",
                type: "post",
                status: "published",
                published_at: "2022-02-02T10:00:00.000Z",
              },
            ],
          },
        },
      ],
    };
    const shown = await preview("themes.json", new TextEncoder().encode(JSON.stringify(exported)));
    expect(shown.poems[0]?.oldPaths).toEqual([]);
    expect(shown.poems[0]?.notRedirected).toEqual([
      {
        path: "/themes/",
        reason: "It is one of this site's own addresses (/themes/): this site's page answers there",
      },
    ]);
    const job = await run(shown);
    expect(job.notes).toContain(
      "“Themes”: its old address /themes/ is not redirected. It is one of this site's own addresses (/themes/): this site's page answers there",
    );
    // At most the site's own one-page-one-path redirect to /themes: never to the imported poem.
    const themes = await t.app.request("/themes/");
    expect(themes.headers.get("location") ?? "").not.toContain("/poetry/");
  });

  it("Ghost 2.9's starter posts, then Ghost 3.0's: /themes/ stays this site's; the second site's posts are new poems whose old addresses the first keeps", async () => {
    const first = await preview("v2_export.json", real("ghost/v2_export.json"));
    expect(first.poems).toHaveLength(7);
    const themes = first.poems.find((poem) => poem.title === "Creating a custom theme");
    expect(themes?.oldPaths).toEqual([]);
    expect(themes?.notRedirected).toEqual([
      {
        path: "/themes/",
        reason: "It is one of this site's own addresses (/themes/): this site's page answers there",
      },
    ]);
    expect(await run(first)).toMatchObject({ state: "done", poemsImported: 7 });
    const moved = await t.app.request("http://old-ghost.example/apps-integrations/");
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe(`/poetry/${await slugOf("Apps & integrations")}`);
    const [dated] = await t.db
      .select({ publishAt: poems.publishAt })
      .from(poems)
      .where(eq(poems.title, "Managing admin settings"));
    expect(dated?.publishAt).toEqual(new Date("2021-03-24T05:57:59Z"));

    // Ghost 3's starter posts have the same slugs and titles but their own uuids: another site.
    const second = await preview("v3_export.json", real("ghost/v3_export.json"));
    expect(second.poems.map((poem) => poem.alreadyImported)).toEqual(Array(7).fill(false));
    const apps = second.poems.find((poem) => poem.title === "Apps & integrations");
    expect(apps?.slug).toBe("apps-integrations-2");
    expect(apps?.notRedirected).toEqual([
      {
        path: "/apps-integrations/",
        reason: "“Apps & integrations”, imported earlier, keeps this address",
      },
    ]);
    expect(await run(second)).toMatchObject({ state: "done", poemsImported: 7 });
    expect(
      (await t.app.request("http://old-ghost.example/apps-integrations/")).headers.get("location"),
    ).toBe("/poetry/apps-integrations");
  });

  it("a Ghost members CSV with --source ghost is Ghost's, names and consent come along", async () => {
    const shown = await preview("members.csv", real("ghost/members-update-named.csv"), "ghost");
    expect(shown.job.source).toBe("ghost");
    await run(shown);
    const [member] = await t.db
      .select({ name: subscriptions.name, consentSource: subscriptions.consentSource })
      .from(subscriptions)
      .where(eq(subscriptions.email, "member+update@example.com"));
    expect(member).toEqual({
      name: "Original Name",
      consentSource: "Ghost export (members.csv), consent confirmed by the poet",
    });
  });
});
