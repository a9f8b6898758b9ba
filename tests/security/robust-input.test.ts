import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../common/endpoints.ts";
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from "../../common/text.ts";
import { tags } from "../../server/db/schema.ts";
import { drivers } from "../helpers/database.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { ruleFor } from "./access-matrix.ts";
import {
  countRows,
  type Endpoint,
  fillPath,
  isStateChanging,
  listEndpoints,
  parameterNames,
  snapshotRows,
} from "./routes.ts";
import { type Sessions, sampleParameter, seedWorld, WORLD, type World } from "./world.ts";

/** Runs per route and property: enough to shake out a crash, few enough for one minute in all. */
const RUNS_PER_ROUTE = 30;
/** An answer slower than this counts as a hang. */
const ANSWER_TIMEOUT_MS = 5_000;
/** Just over the API's 100 KB body limit. */
const OVERSIZED_BYTES = 100 * 1024 + 1;

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "text/plain",
  "",
];

/** Bodies a careless or hostile client sends: JSON of any shape, near-JSON, and noise. */
const anyBody = fc.oneof(
  fc.json(),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.dictionary(fc.string(), fc.jsonValue()).map((value) => JSON.stringify(value)),
  fc.string({ unit: "binary" }),
  fc.constantFrom("{", "[", '{"a":', "null", "\u0000", '{"__proto__":{"x":1}}', "1e999999"),
);

/** Path parameter values: any text, including slashes, dots, percent signs and control codes. */
const anyParameter = fc.oneof(
  fc.string({ unit: "binary", minLength: 1, maxLength: 300 }),
  fc.constantFrom("..", "%", "%2F", "-1", "0", "99999999999999999999", "NaN", "1e3", " "),
);

const anyQuery = fc.dictionary(
  fc.oneof(
    fc.constantFrom("q", "tag", "page", "limit", "token", "s", "sig", "returnTo"),
    fc.string(),
  ),
  fc.oneof(fc.string({ unit: "binary" }), fc.constantFrom("-1", "0", "1e9", "%", "[]")),
);

/**
 * One code unit or character of the text a client may send: any UTF-16 unit, and more often the
 * ones storage meets least: lone surrogates, non-characters, NUL, characters beyond the BMP,
 * combining marks, bidi controls.
 */
const anyTextUnit = fc.oneof(
  fc.constantFrom(
    "\ud800",
    "\udbff",
    "\udc00",
    "\udfff",
    "\ufffe",
    "\uffff",
    "\u0000",
    "𝄞",
    "🔥",
    "👍🏽",
    "e\u0301",
    "\u202e",
  ),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)),
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
);
const anyText = fc.string({ unit: anyTextUnit, minLength: 1, maxLength: 30 });

/** A fresh calendar day for each ember, so the one-per-day rule does not hide the text's fate. */
const dayNumber = (n: number) => new Date(Date.UTC(2031, 0, 1) + n * 86_400_000).toISOString();

/**
 * Every write that takes text, with a body valid but for `text` in each of its text fields, and
 * who sends it. `n` makes slugs and days unique per run.
 */
const TEXT_WRITES: {
  path: string;
  role: keyof Sessions;
  body: (text: string, n: number, tagId: number) => unknown;
}[] = [
  {
    path: `/api/poems/${WORLD.poemSlug}/whispers`,
    role: "user",
    body: (text) => ({ stanzaIndex: 0, body: text }),
  },
  {
    path: "/api/guest-submission",
    role: "user",
    body: (text) => ({
      name: text,
      email: "guest@example.com",
      handle: text,
      bio: text,
      poemTitle: text,
      poemText: text,
    }),
  },
  { path: "/api/subscribe", role: "user", body: (text) => ({ email: `${text}@example.com` }) },
  {
    path: "/api/admin/poems",
    role: "admin",
    body: (text, n, tagId) => ({
      title: text,
      slug: `text-${n}`,
      stanzas: [text, `${text} / ${text}`],
      coverAlt: text,
      tagIds: [tagId],
    }),
  },
  {
    path: "/api/admin/embers",
    role: "admin",
    body: (text, n) => ({ text, date: dayNumber(n).slice(0, 10) }),
  },
  {
    path: "/api/admin/books",
    role: "admin",
    body: (text, n) => ({
      title: text,
      slug: `text-${n}`,
      blurb: text,
      coverUrl: "/objects/images/cover",
      buyUrl: "https://example.com/buy",
      pages: [{ title: text, content: text }],
    }),
  },
  { path: "/api/admin/tags", role: "admin", body: (text) => ({ name: text }) },
  {
    path: "/api/admin/digest/preview",
    role: "admin",
    body: (text) => ({
      featuredEmber: { text, date: "2026-11-23" },
      topEchoedStanzas: [],
      newPoems: [{ title: text, slug: "river", stanzas: [text] }],
    }),
  },
  { path: "/api/admin/digest/send", role: "admin", body: (text) => ({ subject: text }) },
];

function withTimeout(answer: Response | Promise<Response>, label: string): Promise<Response> {
  return Promise.race([
    Promise.resolve(answer),
    new Promise<never>((_resolve, reject) =>
      setTimeout(
        () => reject(new Error(`${label}: no answer in ${ANSWER_TIMEOUT_MS} ms`)),
        ANSWER_TIMEOUT_MS,
      ),
    ),
  ]);
}

/** 2xx and 3xx pass; a 4xx must be JSON with a message; 5xx never. */
async function expectWellFormedAnswer(response: Response, label: string) {
  expect(response.status, `${label} answered ${response.status}`).toBeLessThan(500);
  if (response.status < 400) return;
  expect(response.headers.get("content-type"), label).toMatch(/^application\/json/);
  const body = (await response.json()) as { message?: unknown };
  expect(typeof body.message, `${label}: ${JSON.stringify(body)}`).toBe("string");
}

/** SECURITY.md, promise 7: random and malformed input to every API route; oversized bodies. */
describe.each(drivers)("robust input on %s", (driver) => {
  let t: TestApp;
  let world: World;

  beforeAll(async () => {
    // Limits high enough that the text, not a rate limit, decides each answer.
    t = await createTestApp(driver, { env: { RATE_LIMIT_SCALE: "1000" } });
    world = await seedWorld(t);
  });
  afterAll(() => t.close());

  const apiEndpoints = () => listEndpoints(t.app).filter((e) => e.path.startsWith("/api/"));
  /**
   * The admin session reaches every handler; routes that end a session or an account are called
   * anonymously.
   */
  const cookieFor = (endpoint: Endpoint, isSignedIn: boolean): Record<string, string> => {
    const rule = ruleFor(endpoint);
    const isEnding = rule?.isSessionEnding || rule?.isAccountEnding;
    return isSignedIn && !isEnding ? { Cookie: world.sessions.admin } : {};
  };

  it("answers random bodies on every state-changing API route with 2xx-4xx, 4xx as {message}", async () => {
    for (const endpoint of apiEndpoints().filter(isStateChanging)) {
      const path = fillPath(endpoint.path, (name) => sampleParameter(endpoint.path, name, world));
      await fc.assert(
        fc.asyncProperty(
          anyBody,
          fc.constantFrom(...CONTENT_TYPES),
          fc.boolean(),
          async (body, contentType, isSignedIn) => {
            const label = `${endpoint.key} with ${JSON.stringify(body).slice(0, 80)} (${contentType})`;
            const response = await withTimeout(
              t.app.request(path, {
                method: endpoint.method,
                headers: { "Content-Type": contentType, ...cookieFor(endpoint, isSignedIn) },
                body,
              }),
              label,
            );
            await expectWellFormedAnswer(response, label);
          },
        ),
        { numRuns: RUNS_PER_ROUTE },
      );
    }
  });

  it("answers any well-formed text in every text field below 500, and refuses text it cannot store whole with 400", async () => {
    const [tag] = await t.db.select({ id: tags.id }).from(tags);
    let n = 0;
    for (const write of TEXT_WRITES) {
      await fc.assert(
        fc.asyncProperty(anyText, async (text) => {
          n += 1;
          const before = await countRows(t.db);
          const label = `POST ${write.path} with ${JSON.stringify(text)}`;
          const response = await withTimeout(
            t.app.request(write.path, {
              method: "POST",
              headers: { "Content-Type": "application/json", Cookie: world.sessions[write.role] },
              body: JSON.stringify(write.body(text, n, tag?.id ?? 0)),
            }),
            label,
          );
          if (isStorableText(text)) {
            await expectWellFormedAnswer(response, label);
            return;
          }
          expect(response.status, label).toBe(400);
          expect(((await response.json()) as { message: string }).message, label).toBe(
            UNSTORABLE_TEXT_MESSAGE,
          );
          expect(await countRows(t.db), label).toEqual(before);
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
    }
  });

  it("answers random path parameters and query strings on every API route the same way", async () => {
    for (const endpoint of apiEndpoints()) {
      const names = parameterNames(endpoint.path);
      await fc.assert(
        fc.asyncProperty(
          fc.array(anyParameter, { minLength: names.length, maxLength: names.length }),
          anyQuery,
          fc.boolean(),
          async (values, query, isSignedIn) => {
            let index = 0;
            const path = fillPath(endpoint.path, () => values[index++] ?? "x");
            const search = new URLSearchParams(query).toString();
            const label = `${endpoint.method} ${path}?${search}`;
            const response = await withTimeout(
              t.app.request(`${path}?${search}`, {
                method: endpoint.method,
                headers: {
                  ...cookieFor(endpoint, isSignedIn),
                  ...(isStateChanging(endpoint) ? { "Content-Type": "application/json" } : {}),
                },
                body: isStateChanging(endpoint) ? "{}" : undefined,
              }),
              label,
            );
            await expectWellFormedAnswer(response, label);
          },
        ),
        { numRuns: RUNS_PER_ROUTE },
      );
    }
  });

  it("refuses a body over 100 KB with 413 before reading it as JSON, changing nothing", async () => {
    const before = await snapshotRows(t.db);
    // Malformed on purpose: a 400 would mean the body was parsed before its size was checked.
    const oversized = `{"body": "${"a".repeat(OVERSIZED_BYTES)}`;
    const refused: string[] = [];
    // The import's preview takes the export file itself, up to its own 50 MB limit
    // (docs/decisions/052-the-import-job.md); tests/integration/import.test.ts holds it to that.
    const jsonCalls = apiEndpoints().filter(
      (endpoint) => isStateChanging(endpoint) && endpoint.path !== endpoints.previewImport.path,
    );
    for (const endpoint of jsonCalls) {
      const path = fillPath(endpoint.path, (name) => sampleParameter(endpoint.path, name, world));
      const declared = await t.app.request(path, {
        method: endpoint.method,
        headers: {
          "Content-Type": "application/json",
          "Content-Length": String(oversized.length),
          Cookie: world.sessions.admin,
        },
        body: oversized,
      });
      // A chunked upload declares no length: the limit counts bytes as they arrive.
      const streamed = await t.app.request(path, {
        method: endpoint.method,
        headers: { "Content-Type": "application/json", Cookie: world.sessions.admin },
        body: new Blob([oversized]).stream(),
        duplex: "half",
      } as RequestInit);
      for (const response of [declared, streamed]) {
        if (response.status !== 413) refused.push(`${endpoint.key}: ${response.status}`);
        else expect(await response.json()).toEqual({ message: "Request body too large" });
      }
    }
    expect(refused).toEqual([]);
    expect(await snapshotRows(t.db)).toEqual(before);
  });
});
