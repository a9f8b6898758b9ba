import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, SITE_ORIGIN } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem, ensureTags } from "../helpers/factories.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const STANZAS = ["The kettle sings / before the house is up", "My father's hands / were maps"];
const READING = "/objects/audio/reading1";

/** Stanza timings with the poem, and the reading's captions (docs/product/chapbook.md). */
describe.each(drivers)("stanza timings on %s", (driver) => {
  let t: TestApp;
  let admin: string;
  let poemId: number;
  let tagIds: number[];

  const save = (fields: Record<string, unknown>) =>
    api(t.app, "PUT", `/api/admin/poems/${poemId}`, {
      cookie: admin,
      origin: SITE_ORIGIN,
      body: {
        title: "Kitchen Hours",
        slug: "kitchen-hours",
        stanzas: STANZAS,
        audioUrl: READING,
        tagIds,
        ...fields,
      },
    });
  const read = async () =>
    (await (await api(t.app, "GET", `/api/admin/poems/${poemId}`, { cookie: admin })).json()) as {
      stanzaTimings: number[] | null;
      readingDuration: number | null;
    };

  beforeAll(async () => {
    t = await createTestApp(driver);
    admin = await signIn(t, "poet@example.com", { admin: true });
    tagIds = (await ensureTags(t.db, ["Memory"])).map((tag) => tag.id);
    poemId = (
      await createPoem(t.db, {
        title: "Kitchen Hours",
        slug: "kitchen-hours",
        stanzas: STANZAS,
        tagNames: ["Memory"],
      })
    ).id;
  });
  afterAll(() => t?.close());

  it("refuses timings that do not fit, naming the field", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { audioUrl: null, stanzaTimings: [0, 2], readingDuration: 5 },
        "stanzaTimings",
        "Add a reading before marking where its stanzas begin",
      ],
      [
        { stanzaTimings: [0, 2] },
        "readingDuration",
        "Give the reading's duration with its stanza timings",
      ],
      [
        { stanzaTimings: [0], readingDuration: 5 },
        "stanzaTimings",
        "Mark one time per stanza: 2 stanzas, 1 time",
      ],
      [
        { stanzaTimings: [3, 2], readingDuration: 5 },
        "stanzaTimings",
        "Each stanza must begin after the one before it",
      ],
      [
        { stanzaTimings: [0, 6], readingDuration: 5 },
        "stanzaTimings",
        "Each stanza must begin before the reading ends",
      ],
      [
        { stanzaTimings: ["0", 2], readingDuration: 5 },
        "stanzaTimings.0",
        "Each time must be a number of seconds",
      ],
    ];
    for (const [fields, field, message] of cases) {
      const response = await save(fields);
      expect(response.status, message).toBe(400);
      expect((await response.json()).errors).toEqual({ [field]: [message] });
    }
    expect((await read()).stanzaTimings).toBeNull();
  });

  it("keeps timings with the poem while its stanzas and reading stay, and asks again when they change", async () => {
    expect((await save({ stanzaTimings: [0.4, 2.5], readingDuration: 5.2 })).status).toBe(200);
    expect(await read()).toMatchObject({ stanzaTimings: [0.4, 2.5], readingDuration: 5.2 });

    // A save that leaves them out keeps them: the stanzas and the reading are the same.
    expect((await save({ title: "Kitchen Hours, Again" })).status).toBe(200);
    expect((await read()).stanzaTimings).toEqual([0.4, 2.5]);

    const captions = await t.app.request("/poetry/kitchen-hours/reading.vtt");
    expect(captions.status).toBe(200);
    expect(captions.headers.get("content-type")).toBe("text/vtt; charset=utf-8");
    expect(await captions.text()).toBe(
      [
        "WEBVTT - Kitchen Hours, Again",
        "",
        "s-0",
        "00:00:00.400 --> 00:00:02.500",
        "The kettle sings",
        "before the house is up",
        "",
        "s-1",
        "00:00:02.500 --> 00:00:05.200",
        "My father's hands",
        "were maps",
        "",
      ].join("\n"),
    );

    // A revision of the stanzas belongs to other timings: they are asked for again.
    expect((await save({ stanzas: [...STANZAS, "A third / stanza"] })).status).toBe(200);
    expect(await read()).toMatchObject({ stanzaTimings: null, readingDuration: null });
    expect((await t.app.request("/poetry/kitchen-hours/reading.vtt")).status).toBe(404);

    // Restoring the version they were marked on brings them back with its stanzas.
    expect(
      (await save({ stanzas: STANZAS, stanzaTimings: [0.4, 2.5], readingDuration: 5.2 })).status,
    ).toBe(200);
    expect(
      (await save({ stanzas: ["Only / one stanza"], stanzaTimings: [0.1], readingDuration: 5.2 }))
        .status,
    ).toBe(200);
    const versions = (await (
      await api(t.app, "GET", `/api/admin/poems/${poemId}/versions`, { cookie: admin })
    ).json()) as { id: number; stanzas: string[] }[];
    const marked = versions.find((version) => version.stanzas.length === 2);
    const restored = await api(
      t.app,
      "POST",
      `/api/admin/poems/${poemId}/versions/${marked?.id}/restore`,
      {
        cookie: admin,
        origin: SITE_ORIGIN,
        body: {},
      },
    );
    expect(restored.status).toBe(200);
    expect(await read()).toMatchObject({ stanzaTimings: [0.4, 2.5] });
  });

  it("answers 404 for the captions of a poem without a timed reading", async () => {
    await createPoem(t.db, { title: "Silent", slug: "silent", tagNames: ["Memory"] });
    expect((await t.app.request("/poetry/silent/reading.vtt")).status).toBe(404);
    expect((await t.app.request("/poetry/no-such-poem/reading.vtt")).status).toBe(404);
  });
});
