import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createLogger } from "../logger.ts";
import { apiBodyLimit } from "./body-limit.ts";
import { createErrorHandler } from "./errors.ts";

const LIMIT = 16;

function appWithLimit() {
  const app = new Hono();
  app.onError(createErrorHandler(createLogger("silent")));
  app.use(apiBodyLimit(LIMIT));
  app.all("/echo", async (c) =>
    c.json({ received: c.req.method === "GET" ? null : await c.req.text() }),
  );
  return app;
}

describe("apiBodyLimit", () => {
  it("passes a body within the limit to the route whole", async () => {
    const response = await appWithLimit().request("/echo", {
      method: "POST",
      headers: { "Content-Length": "11" },
      body: '{"a":"bcd"}',
    });
    expect(await response.json()).toEqual({ received: '{"a":"bcd"}' });
  });

  it("refuses a declared length over the limit with 413 from the header alone", async () => {
    const response = await appWithLimit().request("/echo", {
      method: "POST",
      headers: { "Content-Length": String(LIMIT + 1) },
      body: "x".repeat(LIMIT + 1),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: "Request body too large" });
  });

  it("counts the bytes of a body that declares no length, and refuses it past the limit", async () => {
    const streamed = (text: string) =>
      appWithLimit().request("/echo", {
        method: "PUT",
        body: new Blob([text]).stream(),
        duplex: "half",
      } as RequestInit);
    expect(await (await streamed("x".repeat(LIMIT))).json()).toEqual({
      received: "x".repeat(LIMIT),
    });
    expect((await streamed("x".repeat(LIMIT + 1))).status).toBe(413);
  });

  it("lets a GET through without looking at a body", async () => {
    const response = await appWithLimit().request("/echo");
    expect(await response.json()).toEqual({ received: null });
  });
});
