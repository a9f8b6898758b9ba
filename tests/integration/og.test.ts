import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { DEMO_POEMS } from "../../server/db/demo/content.ts";
import { poems } from "../../server/db/schema.ts";
import { renderStanzaCard, STANZA_BOX } from "../../server/share/stanza-card.ts";
import { drivers } from "../helpers/database.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

// The real renderer, counted: a card served from the cache is not rendered again.
vi.mock("../../server/share/stanza-card.ts", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../server/share/stanza-card.ts")>();
  return { ...actual, renderStanzaCard: vi.fn(actual.renderStanzaCard) };
});

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

async function png(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

function demoPoem(slug: string) {
  const poem = DEMO_POEMS.find((demo) => demo.slug === slug);
  if (!poem) throw new Error(`no demo poem ${slug}`);
  return poem;
}

/**
 * Where the card's stanza ink is, read from its pixels: the box around every pixel as dark as the
 * stanza's text. The site name, the rule and the title are lighter, so only the stanza counts.
 */
async function stanzaInk(card: Buffer) {
  const { data, info } = await sharp(card)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const ink = { top: Infinity, bottom: -Infinity, left: Infinity, right: -Infinity };
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const at = (y * info.width + x) * info.channels;
      if (Math.max(data[at] ?? 255, data[at + 1] ?? 255, data[at + 2] ?? 255) < 80) {
        ink.top = Math.min(ink.top, y);
        ink.bottom = Math.max(ink.bottom, y);
        ink.left = Math.min(ink.left, x);
        ink.right = Math.max(ink.right, x);
      }
    }
  }
  return ink;
}

describe.each(drivers)("Open Graph stanza cards on %s", (driver) => {
  let t: TestApp;
  const rendered = vi.mocked(renderStanzaCard);

  beforeAll(async () => {
    t = await createTestApp(driver);
    await t.db.insert(poems).values([
      {
        title: "Small Fires",
        slug: "small-fires",
        stanzas: ["I kept the ember / under my tongue / all winter", "and in spring / I spoke"],
      },
      {
        title: 'Night <script>alert("x")</script> & <b>Day</b>',
        slug: "markup-title",
        stanzas: ["a title is text, / not markup"],
      },
      { title: "One Line", slug: "one-line", stanzas: ["I kept the ember under my tongue"] },
      {
        title: "The Kitchen Table",
        slug: "the-kitchen-table",
        stanzas: demoPoem("the-kitchen-table").stanzas,
      },
      {
        title: "Twenty Lines",
        slug: "twenty-lines",
        stanzas: [
          Array.from(
            { length: 20 },
            (_, i) =>
              `${`${i + 1}. the river goes on past the mill and the yard`.padEnd(119, " and on")}.`,
          ).join(" / "),
        ],
      },
    ]);
  });
  afterAll(() => t.close());
  // A function returned from beforeEach runs as its cleanup: keep mockClear's return out of it.
  beforeEach(() => {
    rendered.mockClear();
  });

  it("renders a 1200x630 PNG of the stanza with a day of public caching", async () => {
    const response = await t.app.request("/og/stanza/small-fires/0.png");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("cache-control")).toBe("public, max-age=86400");
    const body = await png(response);
    expect([...body.subarray(0, 8)]).toEqual(PNG_MAGIC);
    const meta = await sharp(body).metadata();
    expect(meta.format).toBe("png");
    expect(meta.width).toBe(1200);
    expect(meta.height).toBe(630);
    expect(rendered).toHaveBeenCalledWith({
      lines: ["I kept the ember", "under my tongue", "all winter"],
      title: "Small Fires",
      siteName: t.config.siteName,
    });
  });

  it("serves a repeated request from the cache, byte for byte", async () => {
    const first = await png(await t.app.request("/og/stanza/small-fires/1.png"));
    const second = await png(await t.app.request("/og/stanza/small-fires/1.png"));
    expect(second.equals(first)).toBe(true);
    expect(rendered).toHaveBeenCalledTimes(1);
    expect(rendered.mock.calls[0]?.[0].lines).toEqual(["and in spring", "I spoke"]);
  });

  it("renders again once the poem has changed", async () => {
    await t.app.request("/og/stanza/small-fires/0.png");
    rendered.mockClear();
    await t.db
      .update(poems)
      .set({ updatedAt: new Date(Date.now() + 60_000) })
      .where(eq(poems.slug, "small-fires"));
    await t.app.request("/og/stanza/small-fires/0.png");
    await t.app.request("/og/stanza/small-fires/0.png");
    expect(rendered).toHaveBeenCalledTimes(1);
  });

  it("clamps an out-of-range or non-numeric index to the poem's stanzas", async () => {
    const last = await png(await t.app.request("/og/stanza/small-fires/1.png"));
    const beyond = await t.app.request("/og/stanza/small-fires/99.png");
    expect(beyond.status).toBe(200);
    expect(beyond.headers.get("content-type")).toBe("image/png");
    expect((await png(beyond)).equals(last)).toBe(true);

    const word = await t.app.request("/og/stanza/small-fires/first.png");
    expect(word.status).toBe(200);
    const negative = await t.app.request("/og/stanza/small-fires/-3.png");
    expect(negative.status).toBe(200);
    expect((await png(negative)).equals(await png(word))).toBe(true);
  });

  it("answers an unknown slug with a JSON 404", async () => {
    const response = await t.app.request("/og/stanza/no-such-poem/0.png");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toMatchObject({ message: "Poem not found" });
  });

  it("draws a title with markup as text and still answers a PNG", async () => {
    const response = await t.app.request("/og/stanza/markup-title/0.png");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    const meta = await sharp(await png(response)).metadata();
    expect([meta.width, meta.height]).toEqual([1200, 630]);
    expect(rendered.mock.calls[0]?.[0].title).toBe(
      'Night <script>alert("x")</script> & <b>Day</b>',
    );
  });

  // The margin bands are everything outside the stanza's box and its edge rows: text cut off at
  // the box leaves ink on its edge, text let run leaves ink past it.
  it.each([
    ["a one-line stanza", "one-line", 0],
    ["The Kitchen Table, stanza 2", "the-kitchen-table", 1],
    ["twenty lines of 120 characters", "twenty-lines", 0],
  ])("draws %s whole, no ink in the margin bands", async (_, slug, index) => {
    const response = await t.app.request(`/og/stanza/${slug}/${index}.png`);
    expect(response.status).toBe(200);
    const ink = await stanzaInk(await png(response));
    expect(Number.isFinite(ink.top)).toBe(true);
    expect(ink.top).toBeGreaterThan(STANZA_BOX.top);
    expect(ink.bottom).toBeLessThan(STANZA_BOX.top + STANZA_BOX.height - 1);
    expect(ink.left).toBeGreaterThanOrEqual(STANZA_BOX.left);
    expect(ink.right).toBeLessThan(STANZA_BOX.left + STANZA_BOX.width - 1);
  });
});
