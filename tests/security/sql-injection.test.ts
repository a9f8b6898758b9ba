import { getTableName } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimits } from "../../server/db/schema.ts";
import { drivers } from "../helpers/database.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { fillPath, listEndpoints, parameterNames, snapshotRows } from "./routes.ts";
import { sampleParameter, seedWorld, WORLD, type World } from "./world.ts";

/** Input that breaks string-built SQL, LIKE patterns or naive escaping. */
const HOSTILE_INPUT = [
  "' or 1=1 --",
  "'; drop table poems; --",
  '"; drop table poems; --',
  "river' --",
  "river'; update poems set title='x'; --",
  ") or (1=1",
  "1 union select email from users --",
  "%",
  "_",
  "riv%",
  "riv_r",
  "\\",
  "\\'",
  "river\\",
  "$1",
  "'; select pg_sleep(5); --",
  "Ünïcödé 🔥 ‮",
  "\u2019 or \u20191\u2019=\u20191",
];

/** Query parameters any route reads (filters, paging, tokens, links). */
const QUERY_PARAMETERS = ["q", "tag", "page", "limit", "token", "s", "sig", "returnTo"];

/** SECURITY.md, promise 3: every filter, query parameter and slug is a parameter, never SQL. */
describe.each(drivers)("SQL injection on %s", (driver) => {
  let t: TestApp;
  let world: World;

  beforeAll(async () => {
    t = await createTestApp(driver);
    world = await seedWorld(t);
  });
  afterAll(() => t.close());

  /** The public reads: every GET outside the admin area. */
  const publicReads = () =>
    listEndpoints(t.app).filter(
      (endpoint) => endpoint.method === "GET" && !endpoint.path.startsWith("/api/admin/"),
    );

  /** Rows of every table but the rate-limit counters, which count refused attempts by design. */
  async function contentRows() {
    const rows = await snapshotRows(t.db);
    delete rows[getTableName(rateLimits)];
    return rows;
  }

  it("finds nothing through a hostile slug or path parameter, and never fails", async () => {
    const before = await contentRows();
    const failures: string[] = [];
    for (const endpoint of publicReads()) {
      for (const name of parameterNames(endpoint.path)) {
        for (const input of HOSTILE_INPUT) {
          const path = fillPath(endpoint.path, (each) =>
            each === name ? input : sampleParameter(endpoint.path, each, world),
          );
          const response = await t.app.request(path);
          const label = `${endpoint.key} with ${name}=${JSON.stringify(input)}: ${response.status}`;
          if (response.status >= 500) failures.push(label);
          else if (
            response.status === 200 &&
            response.headers.get("content-type")?.includes("json")
          ) {
            // A list that answers for an unknown thing must be empty; a record must not exist.
            const body: unknown = await response.json();
            const isEmpty = Array.isArray(body) && body.length === 0;
            if (!isEmpty) failures.push(`${label} ${JSON.stringify(body).slice(0, 120)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await contentRows()).toEqual(before);
  });

  it("answers hostile query parameters with 2xx, 3xx or 4xx, and never fails", async () => {
    const before = await contentRows();
    const failures: string[] = [];
    for (const endpoint of publicReads()) {
      const path = fillPath(endpoint.path, (name) => sampleParameter(endpoint.path, name, world));
      for (const parameter of QUERY_PARAMETERS) {
        for (const input of HOSTILE_INPUT) {
          const response = await t.app.request(
            `${path}?${new URLSearchParams({ [parameter]: input })}`,
          );
          if (response.status >= 500) {
            failures.push(
              `${endpoint.key} with ${parameter}=${JSON.stringify(input)}: ${response.status}`,
            );
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await contentRows()).toEqual(before);
  });

  it("matches the tag filter literally: wildcards and quotes find no poems", async () => {
    for (const input of HOSTILE_INPUT) {
      const response = await t.app.request(`/api/poems?${new URLSearchParams({ tag: input })}`);
      expect(response.status, input).toBe(200);
      expect(await response.json(), input).toEqual([]);
    }
    const real = await t.app.request(`/api/poems?tag=${WORLD.tagName}`);
    expect(await real.json()).toHaveLength(1);
  });

  it("refuses hostile input in signed-in JSON bodies without changing content", async () => {
    const before = await contentRows();
    const json = (body: unknown) => ({
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: world.sessions.user },
      body: JSON.stringify(body),
    });
    for (const input of HOSTILE_INPUT) {
      const journal = await t.app.request(
        "/api/journal",
        json({ poemSlug: input, stanzaIndex: 0 }),
      );
      expect([400, 404], `journal ${input}`).toContain(journal.status);
      const echo = await t.app.request(
        `/api/poems/${encodeURIComponent(input)}/echo`,
        json({ stanzaIndex: 0 }),
      );
      expect([400, 404, 429], `echo ${input}`).toContain(echo.status);
      const subscribe = await t.app.request("/api/subscribe", json({ email: input }));
      expect(subscribe.status, `subscribe ${input}`).toBe(400);
      const stanza = await t.app.request(
        "/api/journal",
        json({ poemSlug: WORLD.poemSlug, stanzaIndex: input }),
      );
      expect(stanza.status, `stanzaIndex ${input}`).toBe(400);
    }
    expect(await contentRows()).toEqual(before);
  });

  it("stores hostile text as text, exactly as written", async () => {
    const input = "'; drop table poems; -- %_\\ Ünïcödé";
    const created = await t.app.request(`/api/poems/${WORLD.poemSlug}/whispers`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: world.sessions.otherUser },
      body: JSON.stringify({ stanzaIndex: 1, body: input }),
    });
    expect(created.status).toBe(201);
    const listed = await (await t.app.request(`/api/poems/${WORLD.poemSlug}/whispers/1`)).json();
    expect(JSON.stringify(listed)).toContain(JSON.stringify(input).slice(1, -1));
    expect((await t.app.request(`/api/poems/${WORLD.poemSlug}`)).status).toBe(200);
  });
});
