import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEARCH_QUERY_TOO_LONG } from "../../common/schemas/search.ts";
import { drivers } from "../helpers/database.ts";
import { createEmber, createPoem } from "../helpers/factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/** 30 November 2026, noon UTC: the services' clock. */
const NOW = new Date("2026-11-30T12:00:00.000Z");

interface SearchAnswer {
  poems: { slug: string; title: string; stanzaIndex: number; snippet: string }[];
  embers: { id: number; date: string; text: string }[];
  guestVoices: { slug: string; name: string; title: string }[];
}

/** Text that breaks string-built queries: SQL, tsquery operators, quoting and escapes. */
const INJECTION_CORPUS = [
  "'",
  "''",
  '"',
  '"unclosed',
  "\\",
  "\\'",
  "ember\\",
  "& | ! : * ( )",
  "!",
  "ember:*",
  "ember & !",
  "(ember | hearth",
  "ember <-> hearth",
  "ember <2> hearth",
  "'ember':A",
  "-",
  "--",
  "or",
  "ember or",
  "' or 1=1 --",
  "'; drop table poems; --",
  "1 union select email from users --",
  "$1",
  "%",
  "_",
  "\u2019 or \u20191\u2019=\u20191",
  "Ünïcödé 🔥 \u202e",
];

describe.each(drivers)("search on %s", (driver) => {
  let t: TestApp;

  const search = async (q: string, extra = "") => {
    const response = await t.app.request(`/api/search?${new URLSearchParams({ q })}${extra}`);
    expect(response.status, q).toBe(200);
    return (await response.json()) as SearchAnswer;
  };
  const slugsFor = async (q: string) => (await search(q)).poems.map((poem) => poem.slug);

  beforeAll(async () => {
    t = await createTestApp(driver, { now: () => NOW });
    await createPoem(t.db, {
      title: "Kindling",
      slug: "kindling",
      stanzas: [
        "the match / is small",
        "the logs were burning / all night long",
        "we slept / in the café of the hearth",
      ],
      tagNames: ["Winter"],
      publishAt: new Date("2026-11-01T00:00:00Z"),
    });
    await createPoem(t.db, {
      title: "The Hearth",
      slug: "the-hearth",
      stanzas: ["a room / with no fire in it", "only the word / for warmth"],
      publishAt: new Date("2026-10-01T00:00:00Z"),
    });
    await createPoem(t.db, {
      title: "Unfinished Hearth",
      slug: "unfinished-hearth",
      stanzas: ["a draft burns / in the drawer"],
      draft: true,
    });
    await createPoem(t.db, {
      title: "Hearth at Christmas",
      slug: "hearth-at-christmas",
      stanzas: ["it burns / only in December"],
      publishAt: new Date("2026-12-24T00:00:00Z"),
    });
    await createEmber(t.db, { day: "2026-11-29", text: "Every ember remembers the burn." });
    await createEmber(t.db, { day: "2026-12-01", text: "Tomorrow's ember is not out yet." });
  });
  afterAll(() => t.close());

  it("answers the three groups in the API's shape", async () => {
    const answer = await search("burning");
    expect(Object.keys(answer)).toEqual(["poems", "embers", "guestVoices"]);
    expect(answer.poems).toEqual([
      {
        slug: "kindling",
        title: "Kindling",
        stanzaIndex: 1,
        snippet: "the logs were <mark>burning</mark>",
      },
    ]);
    expect(answer.embers).toEqual([
      { id: expect.any(Number), date: "2026-11-29T00:00:00.000Z", text: expect.any(String) },
    ]);
    const voices = await search("hive");
    expect(voices.guestVoices).toEqual([
      { slug: "maren-hollis", name: "Maren Hollis", title: "What the Hive Knows" },
    ]);
  });

  it("finds words by their stem: 'burning' finds 'burn', 'burn' finds 'burning'", async () => {
    expect((await search("burning")).embers.map((ember) => ember.text)).toEqual([
      "Every ember remembers the burn.",
    ]);
    expect(await slugsFor("burn")).toEqual(["kindling"]);
    expect((await search("burn")).poems[0]?.snippet).toBe("the logs were <mark>burning</mark>");
  });

  it("ignores case and accents, both ways", async () => {
    expect(await slugsFor("CAFE")).toEqual(["kindling"]);
    expect(await slugsFor("Café")).toEqual(["kindling"]);
    const [poem] = (await search("cafe")).poems;
    expect(poem?.stanzaIndex).toBe(2);
    expect(poem?.snippet).toBe("in the <mark>café</mark> of the hearth");
    expect(await slugsFor("kÍndlîng")).toEqual(["kindling"]);
  });

  it("ranks a title match before a match in the stanzas, however recent", async () => {
    // 'Kindling' is newer and names the hearth in a stanza; 'The Hearth' names it in its title.
    expect(await slugsFor("hearth")).toEqual(["the-hearth", "kindling"]);
    const [titleMatch] = (await search("hearth")).poems;
    expect(titleMatch).toMatchObject({ stanzaIndex: 0, snippet: "a room" });
  });

  it("never finds a draft or a scheduled poem, nor an ember dated after today", async () => {
    const answer = await search("burns");
    expect(answer.poems.map((poem) => poem.slug)).toEqual(["kindling"]);
    expect(await slugsFor("drawer")).toEqual([]);
    expect(await slugsFor("December")).toEqual([]);
    expect((await search("tomorrow")).embers).toEqual([]);
  });

  it("escapes the poem's own text in the snippet's HTML", async () => {
    await createPoem(t.db, {
      title: "Markup",
      slug: "markup",
      stanzas: ["<b>bold</b> & 'quoted' glowing"],
    });
    const [poem] = (await search("glow")).poems;
    expect(poem?.snippet).toBe(
      "&lt;b&gt;bold&lt;/b&gt; &amp; &#39;quoted&#39; <mark>glowing</mark>",
    );
  });

  it("runs no search for an empty or blank q", async () => {
    const empty = { poems: [], embers: [], guestVoices: [] };
    expect(await search("")).toEqual(empty);
    expect(await search("   \t ")).toEqual(empty);
    const absent = await t.app.request("/api/search");
    expect(await absent.json()).toEqual(empty);
    // Only words the configuration drops ('the', 'of'): a query of nothing, no results.
    expect(await search("the of")).toEqual(empty);
  });

  it("refuses q over 200 characters with a message naming q, and takes 200", async () => {
    const tooLong = await t.app.request(`/api/search?q=${"a".repeat(201)}`);
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toMatchObject({
      message: SEARCH_QUERY_TOO_LONG,
      errors: { q: [SEARCH_QUERY_TOO_LONG] },
    });
    expect(SEARCH_QUERY_TOO_LONG).toMatch(/^q /);
    // Characters, not UTF-16 units: 200 emoji are 200 characters.
    await search("🔥".repeat(200));
    await search(`${"b".repeat(199)} hearth`.slice(0, 200));
  });

  it("keeps the limit per group, and refuses a limit outside 1 to 50", async () => {
    expect((await search("hearth", "&limit=1")).poems).toHaveLength(1);
    for (const limit of ["0", "51", "-1", "x", "1.5"]) {
      const response = await t.app.request(`/api/search?q=hearth&limit=${limit}`);
      expect(response.status, limit).toBe(400);
    }
  });

  it("reads any injection corpus as words, never as query syntax or SQL", async () => {
    for (const q of INJECTION_CORPUS) {
      const answer = await search(q);
      expect(
        answer.poems.every((poem) => poem.slug === "kindling" || poem.slug === "the-hearth"),
        q,
      ).toBe(true);
    }
    // Only the reader's words count: websearch's own "or" is the one operator it reads.
    expect((await search("(ember | hearth")).embers).toEqual([]);
    expect((await search("ember or hearth")).embers).toHaveLength(1);
    const lone = await t.app.request("/api/search?q=%ED%A0%80");
    expect(lone.status).toBeLessThan(500);
    const nul = await t.app.request("/api/search?q=ember%00");
    expect(nul.status).toBe(400);
    expect((await t.app.request("/api/poems")).status).toBe(200);
  });
});
