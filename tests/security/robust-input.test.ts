import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../helpers/database.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { ruleFor } from "./access-matrix.ts";
import {
  type Endpoint,
  fillPath,
  isStateChanging,
  listEndpoints,
  parameterNames,
  snapshotRows,
} from "./routes.ts";
import { sampleParameter, seedWorld, type World } from "./world.ts";

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
  fc.oneof(fc.constantFrom("tag", "page", "limit", "token", "s", "sig", "returnTo"), fc.string()),
  fc.oneof(fc.string({ unit: "binary" }), fc.constantFrom("-1", "0", "1e9", "%", "[]")),
);

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

/** Issue #10 item 7: random and malformed input to every API route; oversized bodies. */
describe.each(drivers)("robust input on %s", (driver) => {
  let t: TestApp;
  let world: World;

  beforeAll(async () => {
    t = await createTestApp(driver);
    world = await seedWorld(t);
  });
  afterAll(() => t.close());

  const apiEndpoints = () => listEndpoints(t.app).filter((e) => e.path.startsWith("/api/"));
  /** The admin session reaches every handler; session-ending routes are called anonymously. */
  const cookieFor = (endpoint: Endpoint, isSignedIn: boolean): Record<string, string> =>
    isSignedIn && !ruleFor(endpoint)?.isSessionEnding ? { Cookie: world.sessions.admin } : {};

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
    for (const endpoint of apiEndpoints().filter(isStateChanging)) {
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
