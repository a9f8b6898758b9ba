import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIENCE_LOOKUP_MS, createAccountService } from "../../server/accounts/accounts.ts";
import { createRateLimiter } from "../../server/core/rate-limit.ts";
import { users } from "../../server/db/schema.ts";
import type { PageCache } from "../../server/http/page-cache.ts";
import { createLogger } from "../../server/logger.ts";
import { createMailer } from "../../server/mail/transport.ts";
import { resolveSessionSecret } from "../../server/secrets.ts";
import { api, SITE_ORIGIN } from "../helpers/api.ts";
import { startCachedServer } from "../helpers/cached-server.ts";
import { drivers } from "../helpers/database.ts";
import { createEmber, createPoem } from "../helpers/factories.ts";
import { loadPageHandler } from "../helpers/page-handler.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/** The people of these tests, with what would identify them in a page. */
const PEOPLE = [
  { email: "ada.reader@example.com", firstName: "Adaline", lastName: "Quillfeather", admin: false },
  { email: "ben.reader@example.com", firstName: "Benedikt", lastName: "Marrowstone", admin: false },
  { email: "poet.admin@example.com", firstName: "Perpetua", lastName: "Inkwright", admin: true },
];
const READER_PAGES = [
  "/",
  "/poetry",
  "/poetry/lamp-poem",
  "/themes/lamplight",
  "/ember",
  "/ember/archive",
  "/books",
  "/guest-voices",
  "/contribute",
  "/journal",
  "/share/poem/lamp-poem?s=0",
];

/**
 * Decision 024: pages are kept one copy per audience, and no byte of one person's identity
 * or state reaches another's page; a sign-out or a role change shows within the audience lookup's
 * time on every instance.
 */
describe.each(drivers)("one cached page per audience on %s", (driver) => {
  let t: TestApp;
  let closers: (() => Promise<unknown>)[] = [];
  let caches: PageCache[] = [];
  let bases: string[] = [];
  let cookies: string[];

  /** An instance: its own page cache and its own memory of audiences, on the shared database. */
  async function startInstance(build: Awaited<ReturnType<typeof loadPageHandler>>["build"]) {
    const accounts = createAccountService({
      db: t.db,
      config: t.config,
      logger: createLogger("silent"),
      now: () => new Date(),
      // Two instances on one database, as only PostgreSQL can have in production.
      ownsDatabase: false,
      mailer: createMailer(t.config, createLogger("silent")),
      mailSite: async () => ({
        ...(await t.services.siteSettings.identity()),
        publicUrl: t.config.publicUrl.toString(),
      }),
      rateLimiter: createRateLimiter(t.db, { ownsDatabase: false }),
      secret: resolveSessionSecret(t.config),
    });
    const instance = await startCachedServer(t, build, { audienceOf: accounts.audienceOf });
    closers.push(instance.close);
    caches.push(instance.cache);
    bases.push(instance.base);
  }

  const page = (instance: number, path: string, cookie?: string) =>
    fetch(`${bases[instance]}${path}`, { headers: cookie ? { Cookie: cookie } : {} });

  beforeAll(async () => {
    const handler = await loadPageHandler();
    t = await createTestApp(driver, { pageHandler: handler.pageHandler });
    await createPoem(t.db, {
      slug: "lamp-poem",
      title: "Lamp Poem",
      stanzas: ["the lamp / the window", "the street / the rain"],
      tagNames: ["Lamplight"],
    });
    await createEmber(t.db, { day: new Date().toISOString().slice(0, 10), text: "A small flame" });
    cookies = [];
    for (const person of PEOPLE) {
      cookies.push(await signIn(t, person.email, { admin: person.admin }));
      await t.db
        .update(users)
        .set({ firstName: person.firstName, lastName: person.lastName })
        .where(eq(users.email, person.email));
    }
    await startInstance(handler.build);
    await startInstance(handler.build);
  }, 120_000);
  afterAll(async () => {
    for (const close of closers) await close();
    closers = [];
    caches = [];
    bases = [];
    await t.close();
  });

  it("serves every reader page to each person from their audience's copy, with no one else in it", async () => {
    // Each person echoes, saves and whispers, so each has state a leak would show.
    const identities: string[][] = [];
    for (const [index, cookie] of cookies.entries()) {
      const person = PEOPLE[index];
      const whisper = `whisper-of-${person?.firstName}`;
      const [row] = await t.db
        .select()
        .from(users)
        .where(eq(users.email, person?.email ?? ""));
      identities.push([
        row?.id ?? "",
        person?.email ?? "",
        person?.firstName ?? "",
        person?.lastName ?? "",
        whisper,
      ]);
      const as = { cookie, origin: SITE_ORIGIN };
      await api(t.app, "POST", "/api/poems/lamp-poem/echo", { ...as, body: { stanzaIndex: 0 } });
      await api(t.app, "POST", "/api/journal", {
        ...as,
        body: { poemSlug: "lamp-poem", stanzaIndex: 0 },
      });
      await api(t.app, "POST", "/api/poems/lamp-poem/whispers", {
        ...as,
        body: { stanzaIndex: 0, body: whisper },
      });
    }
    for (let round = 0; round < 2; round++) {
      for (const path of READER_PAGES) {
        for (const [index, cookie] of cookies.entries()) {
          for (const document of [path, path === "/" ? "/_.data" : `${path.split("?")[0]}.data`]) {
            const answer = await page(index % 2, document, cookie);
            expect(answer.status, document).toBe(200);
            const html = await answer.text();
            for (const [other, otherIdentity] of identities.entries()) {
              if (other === index) continue;
              for (const trace of otherIdentity) {
                expect(
                  html.includes(trace),
                  `${document} as ${PEOPLE[index]?.email} shows ${trace}`,
                ).toBe(false);
              }
            }
          }
        }
      }
    }
    // The second round came from memory: signed-in readers and the admin included.
    const hits = caches.reduce((sum, cache) => sum + cache.stats().hits, 0);
    expect(hits).toBeGreaterThan(READER_PAGES.length * 2);
    const readerPage = await (await page(0, "/poetry", cookies[0])).text();
    expect(readerPage).toContain("Logout");
    expect(readerPage).not.toContain(">Admin<");
    const adminPage = await (await page(1, "/poetry", cookies[2])).text();
    expect(adminPage).toContain(">Admin<");
  });

  it("shows a role change and a sign-out in the header of every instance within the lookup time", async () => {
    const email = PEOPLE[1]?.email ?? "";
    const expectHeader = async (cookie: string, link: RegExp) => {
      for (const instance of [0, 1]) {
        const answer = await page(instance, "/books", cookie);
        expect(answer.status).toBe(200);
        expect(await answer.text()).toMatch(link);
      }
    };
    const waitOutTheLookup = () =>
      new Promise((resolve) => setTimeout(resolve, AUDIENCE_LOOKUP_MS + 200));
    const before = cookies[1] ?? "";
    await expectHeader(before, /Logout/);
    // A role change ends the person's sessions (accounts.setRole): both instances show Login.
    await t.services.accounts.setRole(email, "ADMIN");
    await waitOutTheLookup();
    await expectHeader(before, />Login</);
    // Signed in again, now an admin: both instances show the Admin link.
    const asAdmin = await signIn(t, email);
    await expectHeader(asAdmin, />Admin</);
    // Signed out: both instances show Login again and clear the cookie.
    expect((await api(t.app, "GET", "/api/logout", { cookie: asAdmin })).status).toBeLessThan(400);
    await waitOutTheLookup();
    await expectHeader(asAdmin, />Login</);
    const cleared = await page(1, "/books", asAdmin);
    expect(cleared.headers.get("set-cookie")).toMatch(/^ev\.session_token=; Path=\/; Max-Age=0/);
  });

  it("gives a forged cookie the anonymous page, with 200, and clears it", async () => {
    const answer = await page(0, "/poetry", "ev.session_token=forged.not-a-session");
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain(">Login<");
    expect(answer.headers.get("set-cookie")).toMatch(/^ev\.session_token=; Path=\/; Max-Age=0/);
  });
});
