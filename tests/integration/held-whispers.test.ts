import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../common/endpoints.ts";
import { api, SITE_ORIGIN, wireAnswer } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem } from "../helpers/factories.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/**
 * docs/decisions/057-a-stanza-link-and-a-held-whisper.md: while the poet holds new whispers, a held whisper stays
 * in its writer's list, marked as awaiting approval, and in nobody else's; the admin tells it
 * apart from a whisper the poet hid.
 */
describe.each(drivers)("a held whisper on %s", (driver) => {
  let t: TestApp;
  let admin: string;
  let writer: string;
  let otherReader: string;

  const listFor = async (cookie?: string) =>
    wireAnswer(
      endpoints.listWhispers,
      await api(t.app, "GET", "/api/poems/held/whispers/0", cookie ? { cookie } : {}),
    );
  const moderated = async () =>
    wireAnswer(
      endpoints.listModeratedWhispers,
      await api(t.app, "GET", "/api/admin/whispers", { cookie: admin }),
    );
  const moderate = (id: number, action: "approve" | "hide") =>
    api(t.app, "POST", `/api/admin/whispers/${id}/${action}`, {
      cookie: admin,
      origin: SITE_ORIGIN,
      body: {},
    });

  beforeAll(async () => {
    t = await createTestApp(driver);
    admin = await signIn(t, "poet@example.com", { admin: true });
    writer = await signIn(t, "writer@example.com");
    otherReader = await signIn(t, "other@example.com");
    await createPoem(t.db, { slug: "held", title: "Held" });
    const hold = await api(t.app, "PUT", "/api/admin/settings", {
      cookie: admin,
      origin: SITE_ORIGIN,
      body: { holdWhispers: true },
    });
    expect(hold.status).toBe(200);
  }, 120_000);
  afterAll(() => t?.close());

  it("shows the writer their held whisper, marked, and nobody else", async () => {
    const posted = await api(t.app, "POST", "/api/poems/held/whispers", {
      cookie: writer,
      origin: SITE_ORIGIN,
      body: { stanzaIndex: 0, body: "Waiting for the poet" },
    });
    expect(posted.status).toBe(201);
    const { id } = await wireAnswer(endpoints.createWhisper, posted);

    expect(await listFor(writer)).toEqual([
      expect.objectContaining({ id, text: "Waiting for the poet", isAwaitingApproval: true }),
    ]);
    expect(await listFor(otherReader)).toEqual([]);
    expect(await listFor()).toEqual([]);
    expect(await listFor(admin)).toEqual([]);

    expect(await moderated()).toEqual([
      expect.objectContaining({ id, isApproved: false, isAwaitingApproval: true }),
    ]);
  });

  it("once the poet hides it, it is hidden, not awaiting, and its writer no longer sees it", async () => {
    const [held] = await moderated();
    expect((await moderate(held?.id ?? 0, "hide")).status).toBe(200);
    expect(await moderated()).toEqual([
      expect.objectContaining({ isApproved: false, isAwaitingApproval: false }),
    ]);
    expect(await listFor(writer)).toEqual([]);

    expect((await moderate(held?.id ?? 0, "approve")).status).toBe(200);
    const shown = await listFor(otherReader);
    expect(shown).toEqual([expect.objectContaining({ text: "Waiting for the poet" })]);
    expect(shown[0]).not.toHaveProperty("isAwaitingApproval");
  });
});
