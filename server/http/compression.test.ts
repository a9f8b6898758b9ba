import zlib from "node:zlib";
import { Hono } from "hono";
import { setCookie } from "hono/cookie";
import { describe, expect, it } from "vitest";
import { compressText, preferredEncoding } from "./compression.ts";

const page = `<!DOCTYPE html><p>${"A stanza, read slowly. ".repeat(200)}</p>`;

function createTestApp() {
  const app = new Hono();
  app.use(compressText());
  app.get("/page", (c) => {
    setCookie(c, "first", "1");
    setCookie(c, "second", "2");
    c.header("ETag", '"v1"');
    return c.html(page);
  });
  app.get("/short", (c) => c.json({ message: "Not found" }, 404));
  app.get("/image", (c) => c.body(Buffer.alloc(4096, 1), 200, { "Content-Type": "image/png" }));
  app.get("/no-transform", (c) => c.html(page, 200, { "Cache-Control": "no-transform" }));
  app.get("/sized", (c) =>
    c.body(page, 200, { "Content-Type": "text/plain", "Content-Length": String(page.length) }),
  );
  return app;
}

const gzip = { "Accept-Encoding": "gzip, deflate, br" };

describe("preferredEncoding", () => {
  it("prefers Brotli, then gzip, and honours q=0", () => {
    expect(preferredEncoding("gzip, deflate, br")).toBe("br");
    expect(preferredEncoding("gzip;q=1.0, br;q=0")).toBe("gzip");
    expect(preferredEncoding("br;q=0, gzip;q=0")).toBe("identity");
    expect(preferredEncoding("*")).toBe("br");
    expect(preferredEncoding("identity")).toBe("identity");
    expect(preferredEncoding(undefined)).toBe("identity");
  });
});

describe("compressText", () => {
  const app = createTestApp();

  it("gzips a page for a client that accepts it, keeping its cookies and weakening its ETag", async () => {
    const response = await app.request("/page", { headers: gzip });
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    expect(response.headers.get("etag")).toBe('W/"v1"');
    expect(response.headers.getSetCookie()).toEqual(["first=1; Path=/", "second=2; Path=/"]);
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.length).toBeLessThan(page.length / 10);
    expect(zlib.gunzipSync(body).toString()).toBe(page);
  });

  it("answers a length-declared body compressed with its compressed length", async () => {
    const response = await app.request("/sized", { headers: gzip });
    expect(response.headers.get("content-encoding")).toBe("gzip");
    const body = Buffer.from(await response.arrayBuffer());
    expect(response.headers.get("content-length")).toBe(String(body.length));
    expect(zlib.gunzipSync(body).toString()).toBe(page);
  });

  it("answers a HEAD as its GET: the same coding and the same length", async () => {
    for (const headers of [gzip, {}]) {
      const got = await app.request("/page", { headers });
      const body = Buffer.from(await got.arrayBuffer());
      const head = await app.request("/page", { method: "HEAD", headers });
      expect(head.headers.get("content-encoding")).toBe(got.headers.get("content-encoding"));
      expect(head.headers.get("content-length")).toBe(String(body.length));
      expect(await head.text()).toBe("");
    }
  });

  it("sends the page as it is to a client without gzip, still varying on Accept-Encoding", async () => {
    for (const headers of [{}, { "Accept-Encoding": "gzip;q=0, br" }] as Record<string, string>[]) {
      const response = await app.request("/page", { headers });
      expect(response.headers.get("content-encoding")).toBeNull();
      expect(response.headers.get("vary")).toBe("Accept-Encoding");
      expect(await response.text()).toBe(page);
    }
  });

  it("leaves short bodies, images and no-transform answers alone", async () => {
    const short = await app.request("/short", { headers: gzip });
    expect(short.status).toBe(404);
    expect(short.headers.get("content-encoding")).toBeNull();
    expect(await short.json()).toEqual({ message: "Not found" });

    const image = await app.request("/image", { headers: gzip });
    expect(image.headers.get("content-encoding")).toBeNull();
    expect(image.headers.get("vary")).toBeNull();
    expect((await image.arrayBuffer()).byteLength).toBe(4096);

    const kept = await app.request("/no-transform", { headers: gzip });
    expect(kept.headers.get("content-encoding")).toBeNull();
    expect(await kept.text()).toBe(page);
  });
});
