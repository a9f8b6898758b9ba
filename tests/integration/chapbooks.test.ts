import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../common/endpoints.ts";
import { chapbooks } from "../../server/db/schema.ts";
import { api, SITE_ORIGIN, wireAnswer } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem, ensureTags } from "../helpers/factories.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/** The chapbook's admin calls and downloads (docs/product/chapbook.md). */
describe.each(drivers)("chapbooks on %s", (driver) => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  let poemIds: number[];
  let outsideId: number;
  let tagIds: number[];

  const call = (method: string, path: string, body?: unknown, cookie: string | undefined = admin) =>
    api(t.app, method, path, { body, cookie, origin: SITE_ORIGIN });
  const input = (fields: Record<string, unknown> = {}) => ({
    title: "Small Fires",
    subtitle: "Poems",
    poemIds,
    trim: "a5",
    downloadable: true,
    withReadings: false,
    ...fields,
  });
  const download = (path: string, cookie?: string, headers: Record<string, string> = {}) =>
    t.app.request(path, { headers: { ...headers, ...(cookie ? { Cookie: cookie } : {}) } });

  beforeAll(async () => {
    t = await createTestApp(driver);
    admin = await signIn(t, "poet@example.com", { admin: true });
    reader = await signIn(t, "reader@example.com");
    tagIds = (await ensureTags(t.db, ["Memory"])).map((tag) => tag.id);
    const made = [];
    for (const title of ["Kitchen Hours", "Harbour", "Thaw"]) {
      made.push(await createPoem(t.db, { title, tagNames: ["Memory"] }));
    }
    poemIds = made.map((poem) => poem.id).reverse();
    outsideId = (await createPoem(t.db, { title: "Not in it", tagNames: ["Memory"] })).id;
  });
  afterAll(() => t?.close());

  it("creates, reads, lists with its build state, updates and deletes a chapbook", async () => {
    const created = await call("POST", "/api/admin/chapbooks", input());
    expect(created.status).toBe(201);
    const book = await wireAnswer(endpoints.createChapbook, created);
    expect(book).toMatchObject({
      slug: "small-fires",
      title: "Small Fires",
      subtitle: "Poems",
      poemIds,
      trim: "a5",
      downloadable: true,
      coverUrl: null,
      pdfUrl: "/chapbooks/small-fires.pdf",
      epubUrl: "/chapbooks/small-fires.epub",
      build: { state: "queued", progress: 0, poemCount: 3 },
    });

    const listed = await wireAnswer(
      endpoints.listChapbooks,
      await call("GET", "/api/admin/chapbooks"),
    );
    expect(listed.map((each) => [each.slug, each.build.state])).toEqual([
      ["small-fires", "queued"],
    ]);

    const reordered = [...poemIds].reverse();
    const updated = await call(
      "PUT",
      `/api/admin/chapbooks/${book.id}`,
      input({ poemIds: reordered, trim: "6x9", dedication: "For M." }),
    );
    expect(updated.status).toBe(200);
    expect(await updated.json()).toMatchObject({
      poemIds: reordered,
      trim: "6x9",
      dedication: "For M.",
    });
    const read = await wireAnswer(
      endpoints.getChapbook,
      await call("GET", `/api/admin/chapbooks/${book.id}`),
    );
    expect(read.poemIds).toEqual(reordered);

    expect((await call("DELETE", `/api/admin/chapbooks/${book.id}`)).status).toBe(204);
    expect((await call("GET", `/api/admin/chapbooks/${book.id}`)).status).toBe(404);
  });

  it("answers 400 naming the field", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ poemIds: [] }, "poemIds", "Choose at least one poem"],
      [{ poemIds: [poemIds[0], poemIds[0]] }, "poemIds", "Each poem can appear only once"],
      [{ poemIds: [999_999] }, "poemIds", "Choose poems from the list"],
      [{ trim: "a4" }, "trim", "Choose A5, 5.5 × 8.5 in or 6 × 9 in"],
      [{ title: " " }, "title", "Title is required"],
      [{ downloadable: "yes" }, "downloadable", "downloadable must be true or false"],
      [
        { coverUrl: "https://elsewhere.example/cover.jpg" },
        "coverUrl",
        "The cover must be an image uploaded here",
      ],
    ];
    for (const [fields, field, message] of cases) {
      const response = await call("POST", "/api/admin/chapbooks", input(fields));
      expect(response.status, field).toBe(400);
      expect((await response.json()).errors[field]).toEqual([message]);
    }
    expect((await call("POST", "/api/admin/chapbooks", input(), reader)).status).toBe(403);
    expect((await call("GET", "/api/admin/chapbooks", undefined, "")).status).toBe(401);
  });

  it("serves the files once made, with a stable name and ETag, and makes them again only when a poem in it changed", async () => {
    const book = await wireAnswer(
      endpoints.createChapbook,
      await call("POST", "/api/admin/chapbooks", input({ title: "Harbour Songs" })),
    );
    const waiting = await download(book.pdfUrl);
    expect(waiting.status).toBe(503);
    expect(waiting.headers.get("retry-after")).toBe("10");

    expect(await t.services.chapbookBuilder.buildQueued()).toBe(1);
    const ready = await wireAnswer(
      endpoints.getChapbook,
      await call("GET", `/api/admin/chapbooks/${book.id}`),
    );
    expect(ready.build).toMatchObject({ state: "ready", progress: 3, poemCount: 3 });

    const pdf = await download(book.pdfUrl);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toBe(
      `attachment; filename="Harbour Songs.pdf"; filename*=UTF-8''Harbour%20Songs.pdf`,
    );
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    const epub = await download(book.epubUrl);
    expect(epub.headers.get("content-type")).toBe("application/epub+zip");
    const etag = pdf.headers.get("etag") ?? "";
    expect(etag).toMatch(/^".+-pdf"$/);
    expect((await download(book.pdfUrl)).headers.get("etag")).toBe(etag);
    expect((await download(book.pdfUrl, undefined, { "If-None-Match": etag })).status).toBe(304);

    // Nothing changed: nothing is made again.
    t.services.contentChanges.received();
    expect(await t.services.chapbookBuilder.buildQueued()).toBe(0);
    // A poem outside it changed: still nothing.
    await savePoem(outsideId, "Not in it, revised");
    expect(await t.services.chapbookBuilder.buildQueued()).toBe(0);
    // A poem in it changed: made again, with a new ETag.
    const inside = poemIds[0] as number;
    await savePoem(inside, "Kitchen Hours revised");
    expect(await t.services.chapbookBuilder.buildQueued()).toBe(1);
    const again = await download(book.pdfUrl);
    expect(again.status).toBe(200);
    expect(again.headers.get("etag")).not.toBe(etag);
  }, 300_000);

  it("keeps a chapbook that is not downloadable to the admin", async () => {
    const book = await wireAnswer(
      endpoints.createChapbook,
      await call("POST", "/api/admin/chapbooks", input({ title: "Drafts", downloadable: false })),
    );
    await t.services.chapbookBuilder.buildQueued();
    expect((await download(book.epubUrl)).status).toBe(404);
    expect((await download(book.epubUrl, reader)).status).toBe(404);
    expect((await download(book.epubUrl, admin)).status).toBe(200);
    expect((await download("/chapbooks/no-such-book.pdf")).status).toBe(404);
  }, 300_000);

  it("takes over a build whose builder's lease ran out", async () => {
    const book = await wireAnswer(
      endpoints.createChapbook,
      await call("POST", "/api/admin/chapbooks", input({ title: "Overtaken" })),
    );
    // Another instance claimed it and stopped: its lease has passed.
    await t.db
      .update(chapbooks)
      .set({ buildState: "building", leaseUntil: new Date(Date.now() - 1000) })
      .where(eq(chapbooks.id, book.id));
    expect((await download(book.pdfUrl)).status).toBe(503);
    expect(await t.services.chapbookBuilder.buildQueued()).toBe(1);
    expect((await download(book.pdfUrl)).status).toBe(200);
  }, 300_000);

  it("leaves a build another instance holds alone, and starts its own again after a restart", async () => {
    const book = await wireAnswer(
      endpoints.createChapbook,
      await call("POST", "/api/admin/chapbooks", input({ title: "Held" })),
    );
    const hold = (claimedBy: string) =>
      t.db
        .update(chapbooks)
        .set({ buildState: "building", claimedBy, leaseUntil: new Date(Date.now() + 60_000) })
        .where(eq(chapbooks.id, book.id));
    await hold("another instance");
    expect(await t.services.chapbookBuilder.buildQueued()).toBe(0);
    // On the embedded database a claim found at start was this process's own, from before.
    await hold("this process before its restart");
    await t.services.chapbookBuilder.loop.releaseOwnClaims();
    const [released] = await t.db.select().from(chapbooks).where(eq(chapbooks.id, book.id));
    expect(released).toMatchObject({ buildState: "queued", claimedBy: null, leaseUntil: null });
    expect(await t.services.chapbookBuilder.buildQueued()).toBe(1);
    expect((await download(book.pdfUrl)).status).toBe(200);
  }, 300_000);

  /** The poet saves a poem through the admin API. */
  async function savePoem(id: number, title: string) {
    const response = await call("PUT", `/api/admin/poems/${id}`, {
      title,
      slug: title.toLowerCase().replace(/[^a-z]+/g, "-"),
      stanzas: ["first line / second line", "another / stanza"],
      tagIds,
    });
    expect(response.status).toBe(200);
  }
});
