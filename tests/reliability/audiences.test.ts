import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Cluster, startCluster } from "../helpers/cluster.ts";
import { openOperator, signInWithLink } from "../helpers/operator.ts";
import type { RunningServer } from "../helpers/server.ts";

/**
 * Decision 024 on two production processes and one PostgreSQL database: each instance keeps
 * one copy of a page per audience, no byte of one person's identity or state reaches another
 * person's page, and a sign-out, a role change or a session's expiry shows in the header of both
 * instances within 5 s (and in the API at once). tests/integration/audiences.test.ts checks the
 * same in process, against one app.
 */

const POEM = "the-kitchen-table";
/**
 * Every reader page of the demo content (app/routes.ts), and the data URL React Router 8 fetches
 * for it on a client navigation (`/_.data` for `/`).
 */
const READER_PAGES = [
  "/",
  "/poetry",
  `/poetry/${POEM}`,
  "/themes/memory",
  "/ember",
  "/ember/archive",
  "/books",
  "/book/the-shape-of-belonging/preview",
  "/guest-voices",
  "/contribute",
  "/journal",
  `/share/poem/${POEM}?s=0`,
].flatMap((path) => [path, `${path === "/" ? "/_" : path.split("?")[0]}.data`]);
/** The one reader page rendered afresh for signed-in readers: it holds their cloud journal. */
const RENDERED_FOR_EACH_READER = /^\/journal(\.data)?$/;
/**
 * How long a sign-out, a role change or an expiry may take to reach a page's header (decision 024).
 */
const CHANGE_DEADLINE_MS = 5_000;
const POLL_MS = 100;

type Audience = "anonymous" | "reader" | "admin";
interface Person {
  email: string;
  firstName: string;
  lastName: string;
  audience: Audience;
  cookie: string;
  id: string;
  whisper: string;
}

/** What the header shows: the session button, the journal's label and the Admin link. */
const HEADERS: Record<Audience, { session: string; journal: string; admin: boolean }> = {
  anonymous: { session: "Login", journal: "Journal (local)", admin: false },
  reader: { session: "Logout", journal: "Journal", admin: false },
  admin: { session: "Logout", journal: "Journal", admin: true },
};

function headerOf(html: string) {
  const header = /<header\b[\s\S]*?<\/header>/.exec(html)?.[0] ?? "";
  return {
    session: /href="\/api\/logout"[^>]*>Logout</.test(header)
      ? "Logout"
      : /href="\/api\/login"[^>]*>Login</.test(header)
        ? "Login"
        : "none",
    journal: />Journal \(local\)</.test(header)
      ? "Journal (local)"
      : />Journal</.test(header)
        ? "Journal"
        : "none",
    admin: /href="\/admin"/.test(header),
  };
}

/**
 * A page as the holder of `cookie` gets it, asking for Brotli: only a copy kept in memory is
 * Brotli-compressed (a render is sent plain or gzipped), so `fromMemory` tells the two apart.
 */
async function load(server: RunningServer, path: string, cookie?: string) {
  const response = await fetch(`${server.url}${path}`, {
    headers: { "accept-encoding": "br", ...(cookie ? { cookie } : {}) },
  });
  return {
    status: response.status,
    fromMemory: response.headers.get("content-encoding") === "br",
    setCookie: response.headers.get("set-cookie"),
    body: await response.text(),
  };
}

/** GET /api/auth/user on `server` as the holder of `cookie`: its status and body. */
async function currentUser(server: RunningServer, cookie: string) {
  const response = await fetch(`${server.url}/api/auth/user`, { headers: { cookie } });
  return { status: response.status, body: await response.text() };
}

/** A reader's write through `server`, as the site's own page sends it. */
async function post(server: RunningServer, cookie: string, path: string, body: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { cookie, origin: server.url, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status, `POST ${path}: ${await response.text()}`).toBeLessThan(300);
}

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  "one cached page per audience on two instances sharing PostgreSQL",
  () => {
    let cluster: Cluster;
    let one: RunningServer;
    let two: RunningServer;
    let database: pg.Client;
    let people: Person[];

    /** Signs `email` in through instance one with the operator's login link. */
    async function signIn(email: string, options: { admin?: boolean } = {}) {
      const operator = await openOperator(one, cluster.postgres);
      try {
        const link = await operator.run("login-link", email, ...(options.admin ? ["--admin"] : []));
        return await signInWithLink(link);
      } finally {
        await operator.close();
      }
    }

    beforeAll(async () => {
      cluster = await startCluster(2);
      [one, two] = cluster.servers as [RunningServer, RunningServer];
      database = new pg.Client({ connectionString: cluster.postgres.databaseUrl });
      await database.connect();
      const cast = [
        { email: "ada.reader@example.com", firstName: "Adaline", lastName: "Quillfeather" },
        { email: "ben.reader@example.com", firstName: "Benedikt", lastName: "Marrowstone" },
        { email: "poet.admin@example.com", firstName: "Perpetua", lastName: "Inkwright" },
      ];
      people = [];
      for (const [index, person] of cast.entries()) {
        const audience = index === 2 ? "admin" : "reader";
        const cookie = await signIn(person.email, { admin: audience === "admin" });
        const { rows } = await database.query<{ id: string }>(
          "update users set first_name = $1, last_name = $2 where email = $3 returning id",
          [person.firstName, person.lastName, person.email],
        );
        const id = rows[0]?.id ?? "";
        const whisper = `whisper-of-${person.firstName}-${id.slice(0, 8)}`;
        people.push({ ...person, audience, cookie, id, whisper });
        // Each echoes, saves and whispers (through either instance), so each has state a leak
        // would show.
        const through = index % 2 === 0 ? one : two;
        await post(through, cookie, `/api/poems/${POEM}/echo`, { stanzaIndex: 0 });
        await post(through, cookie, "/api/journal", { poemSlug: POEM, stanzaIndex: 0 });
        await post(through, cookie, `/api/poems/${POEM}/whispers`, {
          stanzaIndex: 0,
          body: whisper,
        });
      }
    }, 120_000);
    afterAll(async () => {
      await database?.end();
      await cluster?.stop();
    });

    /** What would identify `person` in a page: ids, email, names, whisper and session token. */
    const tracesOf = (person: Person) => [
      person.id,
      person.email,
      person.firstName,
      person.lastName,
      person.whisper,
      decodeURIComponent(/ev\.session_token=([^;.]+)/.exec(person.cookie)?.[1] ?? person.id),
    ];

    it("serves every reader page from each audience's copy on both instances, with no one else in it", async () => {
      const viewers = [{ audience: "anonymous" as const, cookie: undefined }, ...people];
      // Each instance learns who is who from the same database: the API names the right person.
      for (const server of [one, two]) {
        for (const person of people) {
          const user = await currentUser(server, person.cookie);
          expect(user.status).toBe(200);
          expect(user.body).toContain(person.email);
        }
      }
      for (const round of ["warming", "warm"] as const) {
        for (const path of READER_PAGES) {
          for (const server of [one, two]) {
            for (const viewer of viewers) {
              const as = `${path} on ${server.url} as ${"email" in viewer ? viewer.email : "anonymous"}`;
              const page = await load(server, path, viewer.cookie);
              expect(page.status, as).toBe(200);
              const isShared = !(viewer.cookie && RENDERED_FOR_EACH_READER.test(path));
              if (round === "warm") {
                expect(page.fromMemory, `${as} from memory`).toBe(isShared);
              }
              for (const other of people) {
                // A copy shared by an audience holds no one at all; the fresh journal render
                // may hold its own reader.
                if (other === viewer && !isShared) continue;
                for (const trace of tracesOf(other)) {
                  expect(page.body.includes(trace), `${as} shows ${trace}`).toBe(false);
                }
              }
              if (path.endsWith(".data")) {
                expect(page.body, as).toContain(`"audience","${viewer.audience}"`);
              } else {
                expect(headerOf(page.body), as).toEqual(HEADERS[viewer.audience]);
              }
            }
          }
        }
      }
    });

    /**
     * Watches `server` every POLL_MS: whether the API still knows `cookie` (the first refusal
     * marks the session's end in `ended`), until the poem page's header is the anonymous one
     * (the answer, and when it came) or CHANGE_DEADLINE_MS has passed since the session ended.
     */
    async function watch(server: RunningServer, cookie: string, ended: { at: number }) {
      for (;;) {
        const [user, page] = await Promise.all([
          currentUser(server, cookie),
          load(server, `/poetry/${POEM}`, cookie),
        ]);
        const at = Date.now();
        if (user.status === 401) ended.at = Math.min(ended.at, at);
        const header = headerOf(page.body);
        if (header.session === "Login" || at - ended.at > CHANGE_DEADLINE_MS) {
          return { server: server.url, header, page, at };
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    }

    /**
     * A change that ends `person`'s session (`change`) while both instances are watched: the API
     * refuses the cookie at once on both, and both instances' pages show the anonymous header
     * within CHANGE_DEADLINE_MS of the session's end, from the anonymous copy in memory, and clear
     * the cookie.
     */
    async function expectSessionEnded(what: string, person: Person, change: () => Promise<void>) {
      // Both instances know the cookie's audience, and the anonymous copy is in memory.
      for (const server of [one, two]) {
        const page = await load(server, `/poetry/${POEM}`, person.cookie);
        expect(headerOf(page.body), `${what}: before, on ${server.url}`).toEqual(
          HEADERS[person.audience],
        );
        await load(server, `/poetry/${POEM}`);
      }
      const ended = { at: Number.POSITIVE_INFINITY };
      const watched = Promise.all([one, two].map((server) => watch(server, person.cookie, ended)));
      const changed = change()
        .finally(() => {
          ended.at = Math.min(ended.at, Date.now());
        })
        .then(() => Promise.all([one, two].map((server) => currentUser(server, person.cookie))));
      // Both settled, so no watcher is left polling a stopped cluster when the change fails.
      const [refused, followed] = await Promise.allSettled([changed, watched]);
      if (refused.status === "rejected") throw refused.reason;
      if (followed.status === "rejected") throw followed.reason;
      for (const refusal of refused.value) {
        expect(refusal.status, `${what}: /api/auth/user at once`).toBe(401);
      }
      const lags = followed.value.map((each) => {
        expect(each.header, `${what}: header on ${each.server}`).toEqual(HEADERS.anonymous);
        expect(each.page.fromMemory, `${what}: anonymous copy on ${each.server}`).toBe(true);
        expect(each.page.setCookie).toMatch(/^ev\.session_token=; Path=\/; Max-Age=0/);
        return Math.max(0, each.at - ended.at);
      });
      console.info(`${what}: the headers followed after`, lags.join(" and "), "ms");
      for (const lag of lags) expect(lag).toBeLessThanOrEqual(CHANGE_DEADLINE_MS);
    }

    it("shows a sign-out through one instance in both instances' headers within 5 s", async () => {
      const [reader] = people as [Person];
      await expectSessionEnded("sign-out", reader, async () => {
        const signOut = await fetch(`${one.url}/api/logout`, {
          headers: { cookie: reader.cookie },
          redirect: "manual",
        });
        expect(signOut.status).toBe(302);
      });
    });

    it("shows the operator's role changes in both instances' headers within 5 s", async () => {
      const reader = people[1] as Person;
      const setRole = (role: string) => async () => {
        const cli = await two.cli("user:role", reader.email, role);
        expect(cli.code, cli.stderr).toBe(0);
      };
      // Promoted: the reader's sessions end, and the next sign-in brings the Admin link.
      await expectSessionEnded("promotion", reader, setRole("ADMIN"));
      const asAdmin: Person = { ...reader, audience: "admin", cookie: await signIn(reader.email) };
      // Demoted: the admin's copy of every page is gone from both instances within 5 s.
      await expectSessionEnded("demotion", asAdmin, setRole("USER"));
    });

    it("shows a session's expiry in both instances' headers within 5 s", async () => {
      const admin = people[2] as Person;
      await expectSessionEnded("expiry", admin, async () => {
        const { rowCount } = await database.query(
          "update sessions set expires_at = now() - interval '1 minute' where user_id = $1",
          [admin.id],
        );
        expect(rowCount).toBe(1);
      });
    });
  },
);
