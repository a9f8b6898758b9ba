import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GUEST_VOICES } from "../../common/guest-voices.ts";
import { DEMO_POEMS } from "../../server/db/demo/content.ts";
import { DEMO_BOOK, DEMO_EMBERS } from "../../server/db/demo/embers-and-book.ts";
import { tags } from "../../server/db/schema.ts";
import { seedDemo } from "../../server/db/seed-demo.ts";
import { createLogger } from "../../server/logger.ts";
import { api, SITE_ORIGIN } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/**
 * Starting fresh (docs/decisions/058-sample-content.md): the sample content is listed, then
 * removed in one step, and nothing the poet wrote or edited is touched.
 */
describe.each(drivers)("removing the sample content on %s", (driver) => {
  let t: TestApp;
  let admin: string;
  const call = (method: string, path: string, body?: unknown) =>
    api(t.app, method, path, { body, cookie: admin, origin: SITE_ORIGIN });
  const json = async (method: string, path: string, body?: unknown) => {
    const response = await call(method, path, body);
    expect(response.status, `${method} ${path}`).toBeLessThan(300);
    return response.json();
  };

  beforeAll(async () => {
    t = await createTestApp(driver);
    await seedDemo(t.db, t.config, createLogger("silent"));
    admin = await signIn(t, "poet@example.com", { admin: true });
  }, 120_000);
  afterAll(() => t.close());

  it("lists the sample, removes exactly it, and leaves the poet's poem, ember, tags and voice", async () => {
    const [becoming] = await t.db.select().from(tags).where(eq(tags.name, "Becoming"));
    const own = await json("POST", "/api/admin/tags", { name: "Harbour" });
    // The poet's poem carries one of the sample's tags: that tag is theirs now and stays.
    const poem = await json("POST", "/api/admin/poems", {
      title: "My Own Poem",
      slug: "my-own-poem",
      stanzas: ["a line I wrote / and another"],
      tagIds: [own.id, becoming?.id],
    });
    await json("POST", "/api/admin/embers", { text: "My own ember", date: "2027-01-05" });
    // A built-in voice the poet rewrote is theirs; one they only hid is still the sample's.
    const voices = (await json("GET", "/api/admin/guest-voices")) as Array<{
      id: number;
      slug: string;
    }>;
    const [rewritten, hidden] = voices;
    await json("PUT", `/api/admin/guest-voices/${rewritten?.id}`, {
      bio: "Rewritten by the poet.",
    });
    await json("PUT", `/api/admin/guest-voices/${hidden?.id}`, { hidden: true });

    const listed = await json("GET", "/api/admin/sample-content");
    expect(listed.poems).toEqual(expect.arrayContaining(DEMO_POEMS.map((p) => p.title)));
    expect(listed.poems).toHaveLength(DEMO_POEMS.length);
    expect(listed.poems).not.toContain("My Own Poem");
    expect(listed.books).toEqual([DEMO_BOOK.title]);
    // The seed gives each day from 30 days back to 7 ahead one of the demo embers.
    expect(listed.embers).toHaveLength(38);
    const demoTexts = DEMO_EMBERS.map((ember) => ember.text);
    expect(listed.embers.every((text: string) => demoTexts.includes(text))).toBe(true);
    expect(listed.embers).not.toContain("My own ember");
    expect(listed.guestVoices).toEqual(GUEST_VOICES.slice(1).map((voice) => voice.name));
    expect(listed.keptTags).toEqual(["Becoming"]);
    expect(listed.tags).not.toContain("Becoming");
    expect(listed.tags).not.toContain("Harbour");

    const removed = await json("DELETE", "/api/admin/sample-content");
    expect(removed).toEqual(listed);

    const poems = (await json("GET", "/api/admin/poems")) as Array<{ id: number }>;
    expect(poems.map((row) => row.id)).toEqual([poem.id]);
    const readersSee = (await (await t.app.request("/api/poems")).json()) as Array<{
      slug: string;
      tags: Array<{ name: string }>;
    }>;
    expect(readersSee.map((row) => row.slug)).toEqual(["my-own-poem"]);
    expect(readersSee[0]?.tags.map((tag) => tag.name).sort()).toEqual(["Becoming", "Harbour"]);
    const embers = (await json("GET", "/api/admin/embers/all")) as Array<{ text: string }>;
    expect(embers.map((ember) => ember.text)).toEqual(["My own ember"]);
    expect(await (await t.app.request("/api/books")).json()).toEqual([]);
    const tagNames = ((await json("GET", "/api/admin/tags/usage")) as Array<{ name: string }>).map(
      (tag) => tag.name,
    );
    expect(tagNames).toEqual(["Becoming", "Harbour"]);
    const left = (await json("GET", "/api/admin/guest-voices")) as Array<{ slug: string }>;
    expect(left.map((voice) => voice.slug)).toEqual([rewritten?.slug]);

    // Nothing is left to remove: a second time lists and removes nothing.
    const empty = { poems: [], embers: [], books: [], tags: [], guestVoices: [], keptTags: [] };
    expect(await json("GET", "/api/admin/sample-content")).toEqual(empty);
    expect(await json("DELETE", "/api/admin/sample-content")).toEqual(empty);
    expect(
      (await api(t.app, "DELETE", "/api/admin/sample-content", { origin: SITE_ORIGIN })).status,
    ).toBe(401);
  });

  it("deletes any ember, the featured one too, and shows what carries a tag before it goes", async () => {
    const featured = await json("POST", "/api/admin/embers", {
      text: "The week's ember",
      date: "2027-01-06",
      isFeatured: true,
    });
    const tag = await json("POST", "/api/admin/tags", { name: "Tide" });
    await json("PUT", `/api/admin/embers/${featured.id}`, {
      text: "The week's ember",
      date: "2027-01-06",
      isFeatured: true,
      tagIds: [tag.id],
    });
    const usage = (await json("GET", "/api/admin/tags/usage")) as Array<{
      name: string;
      poems: number;
      embers: number;
    }>;
    expect(usage.find((row) => row.name === "Tide")).toMatchObject({ poems: 0, embers: 1 });
    expect(usage.find((row) => row.name === "Harbour")).toMatchObject({ poems: 1, embers: 0 });
    expect((await call("DELETE", `/api/admin/embers/${featured.id}`)).status).toBe(204);
    expect((await call("DELETE", `/api/admin/tags/${tag.id}`)).status).toBe(204);
    const embers = (await json("GET", "/api/admin/embers/all")) as Array<{ text: string }>;
    expect(embers.map((ember) => ember.text)).toEqual(["My own ember"]);
  });
});
