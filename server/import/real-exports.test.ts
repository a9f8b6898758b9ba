import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseImport } from "./parse.ts";
import type { ImportSource } from "./types.ts";

/**
 * Exports the platforms (and their own test suites) made, kept as they were written
 * (tests/fixtures/import/real/SOURCES.md): each must bring the poems, dates and stanzas below.
 */
const REAL = path.join(import.meta.dirname, "../../tests/fixtures/import/real");
const NOW = new Date("2026-11-28T12:00:00Z");

async function parsed(file: string, source?: ImportSource) {
  const bytes = new Uint8Array(await readFile(path.join(REAL, file)));
  return parseImport({ fileName: path.basename(file), bytes }, source, { now: NOW });
}

describe("real WordPress exports", () => {
  it("WXR 1.0 (WordPress 3.0): posts known by guid on their site, pages skipped, both old forms", async () => {
    const result = await parsed("wordpress/valid-wxr-1.0.xml");
    expect(result.poems.map((poem) => [poem.site, poem.sourceId, poem.title])).toEqual([
      ["localhost", "http://localhost/?p=1", "Hello world!"],
      ["localhost", "http://localhost/?p=4", "Alpha post"],
      ["localhost", "http://localhost/?p=6", "Child post"],
    ]);
    expect(result.poems[0]).toMatchObject({
      state: "published",
      publishAt: new Date("2010-10-20T14:08:20Z"),
      oldPaths: ["/?p=1", "/2010/10/20/hello-world/"],
      stanzas: [
        "Welcome to WordPress. This is your first post. Edit or delete it, then start blogging!",
      ],
    });
    expect(result.skipped.map((item) => item.reason)).toEqual([
      "A page, not a post",
      "A page, not a post",
      "A page, not a post",
    ]);
  });

  it("WXR 1.1 (WordPress 3.1): a private post is a draft with a note; every post dated", async () => {
    const { poems } = await parsed("wordpress/small-export.xml");
    expect(poems).toHaveLength(6);
    expect(poems.find((poem) => poem.title === "Private Post")).toMatchObject({
      state: "draft",
      publishAt: null,
      oldPaths: [],
      notes: ["It was private on WordPress: it comes in as a draft"],
    });
    expect(poems.find((poem) => poem.title === "Many Categories")).toMatchObject({
      publishAt: new Date("2011-01-18T07:55:01Z"),
      stanzas: ["This post has a lot of categories."],
    });
  });

  it("WXR 1.2 (WordPress 6.5, in a folder): a poem's lines, its permalink and dated form in the folder", async () => {
    const [poem] = (await parsed("wordpress/wxr-simple.xml")).poems;
    expect(poem).toMatchObject({
      site: "playground.internal/path",
      title: '"The Road Not Taken" by Robert Frost',
      publishAt: new Date("2024-06-05T16:04:48Z"),
      // The site lives in /path: its home page's ?p= is not a path here, so it is not kept.
      oldPaths: ["/path/2024/06/05/hello-world/"],
    });
    expect(poem?.stanzas).toEqual([
      "Two roads diverged in a yellow wood, / And sorry I could not travel both",
      "One seemed great, but the other seemed great too. There was also a third option, but it was not as great. playground.internal/path/one was the best choice. https://playground.internal/path-not-taken was the second best choice.",
    ]);
  });

  it("WordPress.com: a scheduled post whose date passed is published then, old addresses from <link>", async () => {
    const { poems, skipped } = await parsed("wordpress/a11y-unit-test-data-trimmed.xml");
    expect(poems.find((poem) => poem.title === "Scheduled")).toMatchObject({
      site: "wpthemetestdata.wordpress.com",
      state: "published",
      publishAt: new Date("2020-01-01T19:00:18Z"),
      oldPaths: ["/2020/01/01/scheduled/", "/?p=1153"],
      notes: [
        "It was scheduled for 1 January 2020, which has passed: it comes in published at that date",
      ],
    });
    expect(poems.find((poem) => poem.legacyId === "1169")).toMatchObject({
      title: "This post has no title, but it still must link to the single post view somehow.",
      notes: ["It had no title: its first line is the title"],
    });
    expect(poems.find((poem) => poem.legacyId === "1164")).toMatchObject({
      state: "draft",
      oldPaths: [],
    });
    expect(poems.find((poem) => poem.legacyId === "1173")?.title).toBe("Markup: Title With Markup");
    expect(skipped).toEqual([
      { sourceId: "2", title: "About The Tests", reason: "A page, not a post" },
    ]);
  });

  it("a site with its own permalink structure (Ghost's migration fixtures): each item's real <link>", async () => {
    const { poems, skipped } = await parsed("wordpress/mg-wp-xml-posts-only.xml");
    expect(poems.find((poem) => poem.title === "Basic Post")).toMatchObject({
      site: "example.com",
      sourceId: "?p=4",
      publishAt: new Date("2013-06-07T03:00:44Z"),
      oldPaths: ["/blog/basic-post.html", "/2013/06/07/basic-post.html/", "/?p=4"],
    });
    expect(skipped).toEqual([
      {
        sourceId: "15",
        title: "My CPT Post",
        reason: "An item of the kind “customcpt”, not a post",
      },
    ]);
  });
});

describe("real WordPress exports: covers", () => {
  it("a featured image is its attachment's file, described by the attachment's alt text", async () => {
    const { poems, skipped } = await parsed("wordpress/mg-wp-xml-sample-with-alt.xml");
    expect(poems).toMatchObject([
      {
        title: "Post with Featured Image Alt Text",
        tags: ["Has Images"],
        publishAt: new Date("2013-06-07T03:00:44Z"),
        coverUrl: "https://example.com/wp-content/uploads/2013/06/featured-image.jpg",
        coverAlt: "Sunset over mountains with orange and pink sky",
        oldPaths: [
          "/blog/post-with-featured-image-alt.html",
          "/2013/06/07/post-with-featured-image-alt.html/",
          "/?p=10",
        ],
      },
    ]);
    expect(skipped).toEqual([
      { sourceId: "15", title: "Beautiful Sunset", reason: "A media file, not a post" },
    ]);
  });
});

describe("real Ghost exports", () => {
  it("Ghost 0.x (export 003): millisecond dates, numbered posts known by their uuid", async () => {
    const result = await parsed("ghost/export-003.json");
    expect(result.poems).toEqual([
      expect.objectContaining({
        site: "",
        sourceId: "8492fbba-1102-4b53-8e3e-abe207952f0c",
        legacyId: "1",
        title: "Welcome to Ghost",
        state: "published",
        publishAt: new Date(1388318310783),
        stanzas: ["You're live! Nice."],
        tags: ["Getting Started"],
        oldPaths: ["/welcome-to-ghost/"],
      }),
    ]);
  });

  it("Ghost 2.9 (page: 0, Mobiledoc and HTML): its seven starter posts, tags from posts_tags, headings and captions named", async () => {
    const { poems, skipped } = await parsed("ghost/v2_export.json");
    expect(skipped).toEqual([]);
    expect(poems.map((poem) => [poem.slug, poem.state, poem.tags])).toEqual(
      [
        "themes",
        "apps-integrations",
        "organising-content",
        "admin-settings",
        "publishing-options",
        "the-editor",
        "welcome",
      ].map((slug) => [slug, "published", ["Getting Started"]]),
    );
    expect(poems[0]).toMatchObject({
      sourceId: "4016b9ba-d0f0-41e2-9565-6a9ba9f44bf3",
      title: "Creating a custom theme",
      publishAt: new Date("2021-03-24T05:57:56Z"),
      coverUrl: "https://static.ghost.org/v2.0.0/images/creating-a-custom-theme.jpg",
      notes: [
        "Dropped an image",
        "Dropped the caption “Anyone can write a completely custom Ghost theme with some solid knowledge of HTML and CSS”",
      ],
    });
    expect(poems[0]?.stanzas).toHaveLength(10);
    expect(poems.find((poem) => poem.slug === "welcome")?.stanzas[0]).toBe(
      "👋 Welcome, it's great to have you here.",
    );
  });

  it("Ghost 3.0 (type post): the same starter posts, new uuids and dates; a gallery and a bookmark card named", async () => {
    const { poems, skipped } = await parsed("ghost/v3_export.json");
    expect(skipped).toEqual([]);
    expect(poems).toHaveLength(7);
    expect(poems[0]).toMatchObject({
      sourceId: "267e7f1c-c98f-4403-aa38-e4c9931ec86e",
      slug: "themes",
      publishAt: new Date("2021-03-24T00:55:47Z"),
    });
    expect(poems.find((poem) => poem.slug === "the-editor")?.notes).toEqual(
      expect.arrayContaining(["Dropped a bookmark card", "Dropped an image gallery"]),
    );
  });

  it("Ghost 4.1 (a whole new site's export): four pages skipped, a post for paying members noted, figures and captions named", async () => {
    const { poems, skipped } = await parsed("ghost/v4_export.json");
    expect(poems.map((poem) => poem.slug)).toEqual([
      "integrations",
      "grow",
      "sell",
      "portal",
      "write",
      "design",
      "welcome",
    ]);
    expect(skipped.map((item) => [item.title, item.reason])).toEqual([
      ["About this site", "A page, not a post"],
      ["Contact", "A page, not a post"],
      ["Privacy", "A page, not a post"],
      ["Contribute", "A page, not a post"],
    ]);
    const sell = poems.find((poem) => poem.slug === "sell");
    expect(sell).toMatchObject({
      sourceId: "fd81262a-c93d-4361-8e06-c88673f0c3a7",
      legacyId: "605ac141a2d5a6aa9e101ec1",
      title: "Selling premium memberships with recurring revenue",
      state: "published",
      publishAt: new Date("2021-03-24T04:34:11Z"),
      coverUrl: "https://static.ghost.org/v4.0.0/images/organizing-your-content.png",
      tags: ["Getting Started"],
      oldPaths: ["/sell/"],
      notes: [
        "Dropped an image",
        "Dropped the caption “The Browser has over 10,000 paying subscribers”",
        "It was for paying members only on Ghost; here every reader can read it",
      ],
    });
    // Nine paragraphs, nine stanzas: the figure between the fifth and sixth joins neither, and
    // the paywall's marker (<!--members-only-->) splits nothing.
    expect(sell?.stanzas).toHaveLength(9);
    expect(sell?.stanzas[4]).toBe(
      "The creator economy is just getting started, and Ghost allows you to build something based on technology that you own and control.",
    );
    expect(sell?.stanzas[6]).toBe("Hold back some of the best bits for paying members only!");
    expect(poems.find((poem) => poem.slug === "write")?.notes).toEqual(
      expect.arrayContaining(["Dropped 5 images", "Dropped 2 image galleries", "Dropped an embed"]),
    );
  });

  it("Ghost 4.x/5 newsletter export (products, tiers and newsletters beside the posts): its one post", async () => {
    const { poems, skipped, subscribers } = await parsed("ghost/products-export.json");
    expect([skipped, subscribers]).toEqual([[], []]);
    expect(poems).toEqual([
      expect.objectContaining({
        sourceId: "e4b7fed0-348e-4415-ac3e-0aa36f5f8956",
        title: "Test newsletter",
        slug: "test-newsletter",
        state: "published",
        publishAt: new Date("2022-06-08T07:15:28Z"),
        // The empty paragraph Ghost's editor left before the text is no stanza.
        stanzas: ["Hi there! This is a test newsletter."],
        oldPaths: ["/test-newsletter/"],
        notes: [],
      }),
    ]);
  });

  it("Ghost 0.x's exotic dates (no db wrapper; '25 Nov 2016 04:20:00 +000'): read with their zone", async () => {
    const { poems } = await parsed("ghost/export-003-exoticDateParsing.json");
    expect(poems).toMatchObject([
      {
        sourceId: "8492fbba-1102-4b53-8e3e-abe207952f0c",
        title: "Welcome to Ghost",
        state: "published",
        publishAt: new Date("2016-11-25T04:20:00Z"),
        tags: ["Getting Started"],
        notes: [],
      },
    ]);
  });

  it("Ghost 1.x LTS importer's minimal export: a post kept only as Markdown", async () => {
    const { poems } = await parsed("ghost/export-003-minimal.json");
    expect(poems).toMatchObject([{ title: "Welcome to Ghost", stanzas: ["You're live! Nice."] }]);
  });

  it("Ghost 5 (Lexical and HTML): an image never joins the text around it; a Lexical post of only an image is skipped", async () => {
    const { poems, skipped } = await parsed("ghost/mg-assetscraper-ghost.json");
    expect(poems.map((poem) => [poem.title, poem.stanzas, poem.publishAt])).toEqual([
      ["Post 1", ["Hello world", "More text"], new Date("2025-01-01T00:00:00Z")],
      ["Post 2", ["Post with inline image"], new Date("2025-01-02T00:00:00Z")],
    ]);
    expect(skipped).toEqual([
      { sourceId: "3686b35d96fe6fd2a2748c81", title: "Post 3 - Lexical", reason: "It has no text" },
    ]);
  });

  it("members CSVs are known by Ghost's own columns, with or without subscribed_to_emails, names kept", async () => {
    const current = await parsed("ghost/valid-members-import.csv");
    expect(current.source).toBe("ghost");
    expect(current.subscribers).toMatchObject([
      { email: "jbloggs@example.com", name: "joe", receivingEmail: true },
      {
        email: "test@example.com",
        receivingEmail: false,
        skipReason: "They were not subscribed to emails on Ghost",
      },
    ]);
    const before3 = await parsed("ghost/members-for-bulk-unsubscribe.csv");
    expect(before3.source).toBe("ghost");
    expect(before3.subscribers.filter((member) => member.receivingEmail)).toHaveLength(8);
    const named = await parsed("ghost/members-update-named.csv", "ghost");
    expect(named.subscribers).toMatchObject([
      { email: "member+update@example.com", name: "Original Name", receivingEmail: true },
    ]);
  });
});

describe("real Substack exports", () => {
  it("posts: a page skipped, a thread skipped, a podcast with text offered unchosen with its audio", async () => {
    const result = await parseImport(
      { directory: path.join(REAL, "substack/mg-substack") },
      undefined,
      { now: NOW },
    );
    expect(result.poems.map((poem) => [poem.sourceId, poem.state, poem.chosen])).toEqual([
      ["123401.plain-text", "published", true],
      ["123402.podcast", "published", false],
      ["123404.draft-text", "draft", true],
    ]);
    expect(result.poems[0]).toMatchObject({
      publishAt: new Date("2019-07-26T20:48:19.814Z"),
      oldPaths: ["/p/plain-text"],
      stanzas: [
        "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt.",
        "Dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco.",
      ],
    });
    // The subtitle's entities are decoded for the poet.
    expect(result.poems[0]?.notes).toContain("Left out the subtitle ““This quote’s rather short””");
    expect(result.poems[1]).toMatchObject({
      audioUrl: "https://example.com/my-audio/file.mp3",
      stanzas: ["Dolore magna aliqua.", "Dolor sit amet."],
    });
    expect(result.skipped).toEqual([
      { sourceId: "123403.thread", title: "Talk to Us", reason: "A discussion thread, not a post" },
      { sourceId: "123405.about-us", title: "About Us", reason: "A page, not a post" },
    ]);
  });

  it("posts of 2019–2022 (no inbox_sent_at column): drafts, episodes with and without audio, widgets named", async () => {
    const result = await parseImport(
      { directory: path.join(REAL, "substack/mg-substack-csv") },
      undefined,
      { now: NOW },
    );
    expect(result.source).toBe("substack");
    expect(
      result.poems.map((poem) => [poem.sourceId, poem.state, poem.chosen, poem.audioUrl]),
    ).toEqual([
      ["172839.plain-text", "published", true, null],
      ["615243.embedded-tweet", "draft", true, null],
      ["364758.more-plain-text", "draft", false, "https://exampleurl.com/podcast-123.mp3"],
      ["789123.text-with-image", "published", true, null],
      ["345678.list-with-image", "published", true, null],
      ["243546.linked-image", "published", true, null],
      ["789456.text-with-footnotes", "published", true, null],
      ["789567.signup-form", "published", true, null],
      ["789568.embedded-post", "published", true, null],
      ["789679.buttons", "published", true, null],
      ["789680.share-buttons", "published", true, null],
      ["789681.comment-buttons", "published", false, null],
      ["789682.podcast", "published", false, "https://example.com/my-audio/file.mp3"],
    ]);
    const poem = (id: string) => result.poems.find((item) => item.sourceId === id);
    // A draft has no date and no old address: it was never published there.
    expect(poem("615243.embedded-tweet")).toMatchObject({ publishAt: null, oldPaths: [] });
    expect(poem("243546.linked-image")).toMatchObject({
      publishAt: new Date("2021-01-22T11:05:54.230Z"),
      oldPaths: ["/p/linked-image"],
      stanzas: ["Lorem ipsum dolor sit amet, consectetur adipiscing elit."],
      notes: [
        "Dropped the heading “Lorem Ipsum”",
        "Dropped an image",
        "Dropped the caption “This is a really nice photo”",
        "Left out the subtitle “Eiusmod tempor incididunt ut labore.”",
      ],
    });
    // An episode whose row has no podcast_url says its audio is not there.
    expect(poem("789681.comment-buttons")?.notes).toContain(
      "A podcast episode on Substack: its text comes in as the poem; its audio is not in the export",
    );
    expect(poem("789456.text-with-footnotes")?.notes).toContain("Dropped 6 footnotes");
    expect(poem("789567.signup-form")?.notes).toContain("Dropped a subscribe button");
    expect(result.skipped).toEqual([
      { sourceId: "789683.thread", title: "Talk to Us", reason: "A discussion thread, not a post" },
    ]);
  });

  it("email lists: an address with letters beyond ASCII is listed by name with why", async () => {
    const { subscribers } = await parseImport({ directory: path.join(REAL, "substack/members") });
    const international = subscribers.filter((reader) => reader.email.startsWith("ö"));
    expect(international).toMatchObject([{ email: "ömil@gmail.com", receivingEmail: false }]);
    expect(international[0]?.skipReason).toMatch(/^ömil@gmail\.com: .*SMTPUTF8/);
    expect(subscribers.filter((reader) => reader.receivingEmail)).toHaveLength(17);
  });
});
