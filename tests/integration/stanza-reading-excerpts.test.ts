import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalObjectStore } from "../../server/storage/local.ts";
import { api, SITE_ORIGIN } from "../helpers/api.ts";
import { createWav } from "../helpers/audio-files.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem } from "../helpers/factories.ts";
import { mastodonStatus } from "../helpers/mastodon-status.ts";
import { loadPageHandler } from "../helpers/page-handler.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const AP = "application/activity+json";
const TIMINGS = [0, 2.5, 4.1];
const DURATION = 6;

/**
 * A shared stanza carries the poet's voice (docs/decisions/073-stanza-timings-on-the-waveform.md):
 * its share page offers its part of the reading, a media fragment of the same file; its Note
 * carries that part as an Audio attachment only once the poet allows it in the settings.
 */
describe.each(drivers)("a stanza's part of the reading on %s", (driver) => {
  let t: TestApp;
  let admin: string;
  let reading: string;

  const note = async (index: number) => {
    const response = await t.app.request(`/share/poem/three-bells?s=${index}`, {
      headers: { Accept: AP },
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  };
  const allowReadings = async (isAllowed: boolean) => {
    const response = await api(t.app, "PUT", "/api/admin/settings", {
      cookie: admin,
      origin: SITE_ORIGIN,
      body: { stanzaNotesCarryReading: isAllowed },
    });
    expect(response.status).toBe(200);
  };

  beforeAll(async () => {
    const { pageHandler } = await loadPageHandler();
    t = await createTestApp(driver, { pageHandler });
    admin = await signIn(t, "poet@example.com", { admin: true });
    const id = randomUUID();
    await createLocalObjectStore(t.dataDir).put(`audio/${id}`, createWav(DURATION));
    reading = `/objects/audio/${id}`;
    await createPoem(t.db, {
      title: "Three Bells",
      slug: "three-bells",
      stanzas: ["The first bell / across the water", "The second bell", "The third bell, late"],
      audioUrl: reading,
      stanzaTimings: TIMINGS,
      readingDuration: DURATION,
    });
    await createPoem(t.db, { title: "Unread", slug: "unread", audioUrl: reading });
  }, 120_000);
  afterAll(() => t?.close());

  it("offers a stanza's excerpt on its share page, a range of the same file, and names it to previews", async () => {
    const html = await (await t.app.request("/share/poem/three-bells?s=1")).text();
    expect(html).toContain(`<audio class="mt-2 w-full" src="${reading}#t=2.5,4.1"`);
    expect(html).toContain('preload="none"');
    expect(html).toContain('aria-label="Listen to stanza 2 of Three Bells, read by the poet"');
    expect(html).toContain(
      `<meta property="og:audio" content="${t.config.publicUrl.origin}${reading}#t=2.5,4.1"/>`,
    );
    // It stays to offer the voice: no sending on at once.
    expect(html).not.toContain('http-equiv="refresh"');

    // The last stanza runs to the reading's end.
    const last = await (await t.app.request("/share/poem/three-bells?s=2")).text();
    expect(last).toContain(`src="${reading}#t=4.1,6"`);

    // The excerpt is the file itself, read by a range.
    const range = await t.app.request(reading, { headers: { Range: "bytes=0-99" } });
    expect(range.status).toBe(206);

    // A poem without timings has no excerpt, and its share page sends the reader on at once.
    const untimed = await (await t.app.request("/share/poem/unread?s=0")).text();
    expect(untimed).not.toContain("<audio");
    expect(untimed).not.toContain("og:audio");
    expect(untimed).toContain('http-equiv="refresh"');
  });

  it("leaves the Note without the reading until the poet allows it, then attaches its part", async () => {
    expect((await note(1)).attachment).toBeUndefined();

    await allowReadings(true);
    const allowed = await note(1);
    expect(allowed.attachment).toEqual({
      type: "Audio",
      url: `${t.config.publicUrl.origin}${reading}#t=2.5,4.1`,
      mediaType: "audio/wav",
      name: "Stanza 2 of “Three Bells”, read by the poet",
      duration: "PT1.6S",
    });
    // What a Mastodon server makes of it: an audio attachment it downloads, described by name.
    expect(mastodonStatus({ object: allowed }).mediaAttachments).toEqual([
      {
        remoteUrl: `${t.config.publicUrl.origin}${reading}#t=2.5,4.1`,
        description: "Stanza 2 of “Three Bells”, read by the poet",
        downloaded: true,
      },
    ]);
    // A poem without timings has no part to carry.
    const untimed = await t.app.request("/share/poem/unread?s=0", { headers: { Accept: AP } });
    expect(((await untimed.json()) as Record<string, unknown>).attachment).toBeUndefined();

    await allowReadings(false);
    expect((await note(1)).attachment).toBeUndefined();
  });
});
