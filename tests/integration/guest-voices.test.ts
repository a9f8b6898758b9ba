import { asc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GUEST_VOICES } from "../../common/guest-voices.ts";
import { GUEST_VOICE_MESSAGES } from "../../common/schemas/guest-voices.ts";
import { guestVoices } from "../../server/db/schema.ts";
import { api, SITE_ORIGIN } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { loadPageHandler } from "../helpers/page-handler.ts";
import { signIn } from "../helpers/session.ts";
import { type SmtpCapture, startSmtpCapture } from "../helpers/smtp.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

interface Voice {
  id: number;
  slug: string;
  name: string;
  title: string;
  body: string[];
  excerpt: string[];
  position: number;
  hidden: boolean;
  submissionId: number | null;
}

describe.each(drivers)("guest voices on %s", (driver) => {
  let t: TestApp;
  let smtp: SmtpCapture;
  let admin: string;
  let reader: string;

  const call = (method: "GET" | "POST" | "PUT", path: string, body?: unknown, cookie = admin) =>
    api(t.app, method, path, { body, cookie, origin: SITE_ORIGIN });
  const list = async (): Promise<Voice[]> => (await call("GET", "/api/admin/guest-voices")).json();
  const page = (path: string) => t.app.request(path);
  const voiceBody = (fields: Record<string, unknown> = {}) => ({
    name: "Wren Adair",
    handle: "@wren",
    socialUrl: "https://example.com/wren",
    avatarUrl: "/objects/images/wren-1",
    headerImageUrl: "",
    bio: "Wren writes on ferries.",
    title: "Crossing",
    body: ["The ferry leans\ninto the grey", "", "and the gulls  \nkeep count"],
    ...fields,
  });

  beforeAll(async () => {
    const { pageHandler } = await loadPageHandler();
    smtp = await startSmtpCapture();
    t = await createTestApp(driver, { pageHandler, env: { SMTP_URL: smtp.url } });
    admin = await signIn(t, "poet@example.com", { admin: true });
    reader = await signIn(t, "reader@example.com");
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it("starts with exactly the three built-in voices, seeded by the migration, in their order", async () => {
    const rows = await t.db.select().from(guestVoices).orderBy(asc(guestVoices.position));
    expect(
      rows.map(
        ({ slug, name, handle, socialUrl, avatarUrl, headerImageUrl, bio, title, body }) => ({
          slug,
          name,
          handle,
          socialUrl,
          avatarUrl,
          headerImageUrl,
          bio,
          title,
          body,
        }),
      ),
    ).toEqual(
      GUEST_VOICES.map(({ excerpt: _excerpt, otherWorks: _otherWorks, ...voice }) => voice),
    );
    expect(rows.map((row) => row.otherWorks)).toEqual(GUEST_VOICES.map((v) => v.otherWorks));
    const listed = await list();
    expect(listed.map((voice) => voice.excerpt)).toEqual(GUEST_VOICES.map((v) => v.excerpt));
  });

  it("creates, updates, reorders and hides a voice; readers' pages and search follow at once", async () => {
    const created = await call("POST", "/api/admin/guest-voices", voiceBody());
    expect(created.status).toBe(201);
    const voice = (await created.json()) as Voice;
    expect(voice).toMatchObject({
      slug: "wren-adair",
      position: 4,
      hidden: false,
      body: ["The ferry leans\ninto the grey", "", "and the gulls\nkeep count"],
      excerpt: ["The ferry leans", "into the grey", "and the gulls"],
    });
    expect(await (await page("/guest-voices")).text()).toContain("Wren Adair");
    const shown = await page("/guest-voices/wren-adair");
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain("keep count");
    expect(await (await call("GET", "/api/search?q=gulls")).json()).toMatchObject({
      guestVoices: [{ slug: "wren-adair", name: "Wren Adair", title: "Crossing" }],
    });

    const renamed = await call("PUT", `/api/admin/guest-voices/${voice.id}`, {
      title: "Second Crossing",
    });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ title: "Second Crossing", name: "Wren Adair" });
    expect(await (await page("/guest-voices/wren-adair")).text()).toContain("Second Crossing");

    const moved = await call("PUT", `/api/admin/guest-voices/${voice.id}`, { position: 1 });
    expect(await moved.json()).toMatchObject({ position: 1 });
    expect((await list()).map((item) => [item.slug, item.position])).toEqual([
      ["wren-adair", 1],
      ["maren-hollis", 2],
      ["tobias-okafor-reyes", 3],
      ["ines-calloway", 4],
    ]);
    const home = await (await page("/")).text();
    expect(home).toContain("Wren Adair");
    expect(home).not.toContain("Inès Calloway");

    await call("PUT", `/api/admin/guest-voices/${voice.id}`, { position: 9 });
    expect((await list()).map((item) => item.slug)).toEqual([
      "maren-hollis",
      "tobias-okafor-reyes",
      "ines-calloway",
      "wren-adair",
    ]);

    const hidden = await call("PUT", `/api/admin/guest-voices/${voice.id}`, { hidden: true });
    expect(await hidden.json()).toMatchObject({ hidden: true });
    expect((await page("/guest-voices/wren-adair")).status).toBe(404);
    expect(await (await page("/guest-voices")).text()).not.toContain("Wren Adair");
    expect(await (await call("GET", "/api/search?q=gulls")).json()).toMatchObject({
      guestVoices: [],
    });
    expect((await list()).find((item) => item.id === voice.id)?.hidden).toBe(true);
    const sitemap = async () => (await call("GET", "/sitemap.xml")).text();
    expect(await sitemap()).not.toContain("/guest-voices/wren-adair<");

    await call("PUT", `/api/admin/guest-voices/${voice.id}`, { hidden: false });
    expect((await page("/guest-voices/wren-adair")).status).toBe(200);
    expect(await sitemap()).toContain("/guest-voices/wren-adair<");
  });

  it("edits and hides a built-in voice like any other", async () => {
    const maren = (await list()).find((voice) => voice.slug === "maren-hollis");
    await call("PUT", `/api/admin/guest-voices/${maren?.id}`, { hidden: true });
    expect((await page("/guest-voices/maren-hollis")).status).toBe(404);
    await call("PUT", `/api/admin/guest-voices/${maren?.id}`, { hidden: false });
    expect((await page("/guest-voices/maren-hollis")).status).toBe(200);
  });

  it("publishes a submission as it was sent, emails its contributor once, and refuses it twice", async () => {
    const sent = await api(t.app, "POST", "/api/guest-submission", {
      body: {
        name: "Juno Vale",
        email: "Juno@Example.com",
        handle: "@juno",
        socialUrl: "https://example.com/juno",
        bio: "Juno keeps a lighthouse.",
        poemTitle: "Lamp Room",
        poemText: "The lamp turns\nits one slow thought\n\nand the sea answers",
      },
      origin: SITE_ORIGIN,
    });
    expect(sent.status).toBe(201);
    const submissions = await (await call("GET", "/api/admin/submissions")).json();
    const submission = submissions.find((item: { name: string }) => item.name === "Juno Vale");
    const since = smtp.messages.length;

    const published = await call("POST", `/api/admin/submissions/${submission.id}/publish`, {});
    expect(published.status).toBe(201);
    const voice = (await published.json()) as Voice;
    expect(voice).toMatchObject({
      slug: "juno-vale",
      name: "Juno Vale",
      handle: "@juno",
      socialUrl: "https://example.com/juno",
      bio: "Juno keeps a lighthouse.",
      title: "Lamp Room",
      body: ["The lamp turns\nits one slow thought", "and the sea answers"],
      submissionId: submission.id,
      hidden: false,
    });
    expect((await list()).at(-1)?.slug).toBe("juno-vale");
    const reading = await page("/guest-voices/juno-vale");
    expect(reading.status).toBe(200);
    expect(await reading.text()).toContain("and the sea answers");

    const mail = await smtp.waitFor("juno@example.com", since);
    expect(mail.parsed.subject).toContain("published");
    expect(mail.parsed.text).toContain("http://localhost:3000/guest-voices/juno-vale");
    expect(mail.parsed.text).toContain("Lamp Room");

    const again = await call("POST", `/api/admin/submissions/${submission.id}/publish`, {});
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe(GUEST_VOICE_MESSAGES.published);
    // Wait long enough for a second email to have arrived, had one been sent.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      smtp.messages.slice(since).filter((m) => m.to.includes("juno@example.com")),
    ).toHaveLength(1);

    expect((await call("POST", "/api/admin/submissions/999999/publish", {})).status).toBe(404);
  });

  it("answers bad input with 400 naming the field, and readers with 403", async () => {
    const refused = async (method: "POST" | "PUT", path: string, body: unknown) => {
      const response = await call(method, path, body);
      expect(response.status).toBe(400);
      return ((await response.json()) as { errors: Record<string, string[]> }).errors;
    };
    expect(await refused("POST", "/api/admin/guest-voices", voiceBody({ name: "  " }))).toEqual({
      name: [GUEST_VOICE_MESSAGES.name],
    });
    expect(
      Object.keys(
        await refused("POST", "/api/admin/guest-voices", voiceBody({ body: ["", "  "] })),
      ),
    ).toEqual(["body"]);
    expect(
      Object.keys(
        await refused("POST", "/api/admin/guest-voices", voiceBody({ socialUrl: "javascript:1" })),
      ),
    ).toEqual(["socialUrl"]);
    expect(
      Object.keys(
        await refused("POST", "/api/admin/guest-voices", voiceBody({ avatarUrl: "ftp://x/y.png" })),
      ),
    ).toEqual(["avatarUrl"]);
    const [first] = await list();
    expect(await refused("PUT", `/api/admin/guest-voices/${first?.id}`, { position: 0 })).toEqual({
      position: [GUEST_VOICE_MESSAGES.position],
    });
    expect(
      Object.keys(await refused("PUT", `/api/admin/guest-voices/${first?.id}`, { hidden: "yes" })),
    ).toEqual(["hidden"]);
    expect((await call("PUT", "/api/admin/guest-voices/999999", { hidden: true })).status).toBe(
      404,
    );
    const taken = await call(
      "POST",
      "/api/admin/guest-voices",
      voiceBody({ slug: "maren-hollis" }),
    );
    expect(taken.status).toBe(409);
    expect((await call("GET", "/api/admin/guest-voices", undefined, reader)).status).toBe(403);
  });
});
