import { Hono, type MiddlewareHandler } from "hono";
import { describe, expect, it } from "vitest";
import { z } from "zod/mini";
import { type Endpoint, unreadBody } from "../../common/endpoints.ts";
import { dateTime, noContent } from "../../common/schemas/answer.ts";
import { idInText } from "../../common/schemas/input.ts";
import { ServiceError } from "../core/errors.ts";
import { routesAt } from "./routes.ts";

/** A made-up call for the helper alone: params, query and body, an answer with a Date. */
const renameThing = {
  method: "PUT",
  path: "/api/things/:id",
  params: z.object({ id: idInText("Thing not found") }),
  query: z.object({ note: z.optional(z.string()) }),
  body: z.object({ name: z.string().check(z.minLength(1, "Name is required")) }),
  answer: z.object({
    id: z.number(),
    name: z.string(),
    note: z.optional(z.string()),
    at: dateTime,
  }),
  status: 201,
} as const satisfies Endpoint;

const approveThing = {
  method: "POST",
  path: "/api/things/:id/approve",
  body: unreadBody,
  answer: noContent,
  status: 204,
} as const satisfies Endpoint;

function appWith(router: Hono) {
  const app = new Hono();
  app.onError((error, c) =>
    error instanceof ServiceError
      ? c.json({ message: error.message, errors: error.errors }, error.status)
      : c.json({ message: error.message }, 500),
  );
  app.route("/api", router);
  return app;
}

describe("routes registered from their declarations", () => {
  it("hands the handler its checked params, query and body, and sends its value with the call's status", async () => {
    const app = appWith(
      routesAt("/api").call(renameThing, ({ params, query, body }) => ({
        id: params.id,
        name: body.name,
        note: query.note,
        at: new Date("2026-11-26T06:00:00.000Z"),
        secret: "stays on the server",
      })).router,
    );
    const response = await app.request("/api/things/42?note=hi", {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Ember" }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({
      id: 42,
      name: "Ember",
      note: "hi",
      at: "2026-11-26T06:00:00.000Z",
    });
  });

  it("answers 400 with the schemas' messages before the handler runs", async () => {
    let calls = 0;
    const app = appWith(
      routesAt("/api").call(renameThing, () => {
        calls += 1;
        return { id: 1, name: "x", at: new Date() };
      }).router,
    );
    const send = (path: string, body: unknown) =>
      app.request(path, {
        method: "PUT",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const badId = await send("/api/things/abc", { name: "Ember" });
    expect(badId.status).toBe(400);
    expect(await badId.json()).toEqual({
      message: "Thing not found",
      errors: { id: ["Thing not found"] },
    });
    const badBody = await send("/api/things/1", { name: "" });
    expect(badBody.status).toBe(400);
    expect((await badBody.json()).message).toBe("Name is required");
    expect(calls).toBe(0);
  });

  it("reads no body declared unread, so a call without one is answered the same", async () => {
    const approved: string[] = [];
    const app = appWith(
      routesAt("/api").call(approveThing, ({ params }) => {
        approved.push(params.id);
      }).router,
    );
    const response = await app.request("/api/things/7/approve", { method: "POST" });
    expect(response.status).toBe(204);
    expect(approved).toEqual(["7"]);
  });

  it("keeps each middleware in Hono's route list, where the page cache looks for it", () => {
    const marker: MiddlewareHandler = (_c, next) => next();
    const app = appWith(
      routesAt("/api").call(renameThing, marker, () => ({ id: 1, name: "x", at: new Date() }))
        .router,
    );
    const handlers = app.routes.filter((route) => route.path === "/api/things/:id");
    expect(handlers.map((route) => route.method)).toEqual(["PUT", "PUT"]);
    expect(handlers[0]?.handler).toBe(marker);
  });

  it("refuses, when the app starts, a declaration outside the router's mount point", () => {
    expect(() =>
      routesAt("/api/admin").call(renameThing, () => ({ id: 1, name: "x", at: new Date() })),
    ).toThrow("PUT /api/things/:id is declared outside /api/admin, where it is mounted");
  });
});
