import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { getRequestListener } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HEADERS_OF_A_REPRESENTATION, rawRequest } from "../helpers/raw-request.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/** Decision 009: every text file under /assets goes out compressed when the client accepts it. */
describe("built assets", () => {
  let t: TestApp;
  let clientDir: string;
  const SMALL = "export const a = 1;\n";
  const IDENTITY_WRITTEN = new Date("2026-11-20T10:00:00Z");
  const script = `export const lines = ${JSON.stringify(Array.from({ length: 200 }, (_, n) => `line ${n}`))};\n`;

  beforeAll(async () => {
    clientDir = fs.mkdtempSync(path.join(os.tmpdir(), "ev-assets-"));
    const assets = path.join(clientDir, "assets");
    fs.mkdirSync(assets);
    fs.writeFileSync(path.join(assets, "without-copies-abc123.js"), script);
    fs.writeFileSync(path.join(assets, "with-copies-def456.js"), script);
    fs.writeFileSync(
      path.join(assets, "with-copies-def456.js.br"),
      zlib.brotliCompressSync(script),
    );
    fs.writeFileSync(path.join(assets, "with-copies-def456.js.gz"), zlib.gzipSync(script));
    // The build writes each copy a moment after the file it compresses.
    fs.utimesSync(path.join(assets, "with-copies-def456.js"), IDENTITY_WRITTEN, IDENTITY_WRITTEN);
    for (const [suffix, seconds] of [
      [".br", 5],
      [".gz", 9],
    ] as const) {
      const written = new Date(IDENTITY_WRITTEN.getTime() + seconds * 1000);
      fs.utimesSync(path.join(assets, `with-copies-def456.js${suffix}`), written, written);
    }
    // The build compresses every text file, however small (react-router.config.ts).
    fs.writeFileSync(path.join(clientDir, "favicon.svg"), "<svg/>");
    fs.writeFileSync(path.join(assets, "small-0a1b2c.js"), SMALL);
    fs.writeFileSync(path.join(assets, "small-0a1b2c.js.br"), zlib.brotliCompressSync(SMALL));
    fs.writeFileSync(path.join(assets, "small-0a1b2c.js.gz"), zlib.gzipSync(SMALL));
    t = await createTestApp("pglite", { clientAssetsDir: clientDir });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(clientDir, { recursive: true, force: true });
  });

  const get = (file: string, acceptEncoding: string) =>
    t.app.request(`/assets/${file}`, { headers: { "Accept-Encoding": acceptEncoding } });

  it("sends the build's compressed copy the client prefers", async () => {
    const response = await get("with-copies-def456.js", "gzip, deflate, br");
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    // A file that never changes carries no request id: every page fetches several.
    expect(response.headers.get("x-request-id")).toBeNull();
    const body = Buffer.from(await response.arrayBuffer());
    expect(zlib.brotliDecompressSync(body).toString()).toBe(script);
  });

  it("gzips a file that has no compressed copy on the way out", async () => {
    const response = await get("without-copies-abc123.js", "gzip, deflate, br");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    const body = Buffer.from(await response.arrayBuffer());
    expect(zlib.gunzipSync(body).toString()).toBe(script);
  });

  it("sends a file as it is when the client refuses both codings, still varying on them", async () => {
    for (const file of ["with-copies-def456.js", "without-copies-abc123.js"]) {
      const response = await get(file, "br;q=0, gzip;q=0");
      expect(response.headers.get("content-encoding")).toBeNull();
      expect(response.headers.get("vary")).toBe("Accept-Encoding");
      expect(await response.text()).toBe(script);
    }
  });

  it("says that every copy of a text file varies with Accept-Encoding: small, plain, HEAD", async () => {
    for (const file of ["small-0a1b2c.js", "with-copies-def456.js"]) {
      for (const acceptEncoding of ["br", "gzip", "identity"]) {
        for (const method of ["GET", "HEAD"]) {
          const response = await t.app.request(`/assets/${file}`, {
            method,
            headers: { "Accept-Encoding": acceptEncoding },
          });
          expect(response.status).toBe(200);
          expect(response.headers.get("vary"), `${method} ${file} ${acceptEncoding}`).toBe(
            "Accept-Encoding",
          );
        }
      }
    }
  });

  it("answers If-Modified-Since at or after a file's Last-Modified with 304, in every coding", async () => {
    for (const acceptEncoding of ["br", "gzip", "identity"]) {
      const full = await get("with-copies-def456.js", acceptEncoding);
      const lastModified = full.headers.get("last-modified") ?? "";
      expect(lastModified).toMatch(/ GMT$/);
      const later = new Date(Date.parse(lastModified) + 60_000).toUTCString();
      for (const since of [lastModified, later]) {
        const response = await t.app.request("/assets/with-copies-def456.js", {
          headers: { "Accept-Encoding": acceptEncoding, "If-Modified-Since": since },
        });
        expect(response.status).toBe(304);
        expect(await response.text()).toBe("");
        expect(response.headers.get("vary")).toBe("Accept-Encoding");
        expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
        expect(response.headers.get("last-modified")).toBe(lastModified);
        expect(response.headers.get("content-encoding")).toBeNull();
      }
    }
  });

  it("answers If-Modified-Since on the site's other built files (the icon) with 304 too", async () => {
    const full = await t.app.request("/favicon.svg");
    expect(full.headers.get("cache-control")).toBe("public, max-age=3600");
    const response = await t.app.request("/favicon.svg", {
      headers: { "If-Modified-Since": full.headers.get("last-modified") ?? "" },
    });
    expect(response.status).toBe(304);
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
  });

  it.each(["yesterday", "2026-11-26", "Thu, 26 Nov 2026", "Thu, 31 Foo 2026 10:00:00 GMT", ""])(
    "sends the whole file for an If-Modified-Since that is not an HTTP date (%s)",
    async (since) => {
      const response = await t.app.request("/assets/with-copies-def456.js", {
        headers: { "Accept-Encoding": "identity", "If-Modified-Since": since },
      });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(script);
    },
  );

  it("sends the whole file when it changed after If-Modified-Since, or If-None-Match is asked", async () => {
    const lastModified = (await get("small-0a1b2c.js", "identity")).headers.get("last-modified");
    const earlier = new Date(Date.parse(lastModified ?? "") - 1000).toUTCString();
    const changed = await t.app.request("/assets/small-0a1b2c.js", {
      headers: { "Accept-Encoding": "identity", "If-Modified-Since": earlier },
    });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toBe(SMALL);
    const withTag = await t.app.request("/assets/small-0a1b2c.js", {
      headers: {
        "Accept-Encoding": "identity",
        "If-Modified-Since": lastModified ?? "",
        "If-None-Match": '"x"',
      },
    });
    expect(withTag.status).toBe(200);
  });

  it("hands a path with an extension that names no built file on to the pages (a .data request)", async () => {
    // A router's navigation fetches /poetry.data: the built files find nothing and go on, and
    // what the next handler answers (here, with no page handler, Hono's 404) is the answer.
    const response = await t.app.request("/poetry.data");
    expect(response.status).toBe(404);
    const missingAsset = await t.app.request("/assets/missing-000000.js");
    expect(missingAsset.status).toBe(404);
  });

  it("dates every coding of a file with one instant, the file's own", async () => {
    for (const acceptEncoding of ["br", "gzip", "identity"]) {
      const response = await get("with-copies-def456.js", acceptEncoding);
      expect(response.headers.get("last-modified"), acceptEncoding).toBe(
        IDENTITY_WRITTEN.toUTCString(),
      );
    }
  });

  it("answers If-None-Match: * on a file that exists with 304, in every coding", async () => {
    for (const acceptEncoding of ["br", "gzip", "identity"]) {
      const response = await t.app.request("/assets/with-copies-def456.js", {
        headers: { "Accept-Encoding": acceptEncoding, "If-None-Match": "*" },
      });
      expect(response.status, acceptEncoding).toBe(304);
      expect(response.headers.get("last-modified")).toBe(IDENTITY_WRITTEN.toUTCString());
    }
    const missing = await t.app.request("/assets/missing-000000.js", {
      headers: { "If-None-Match": "*" },
    });
    expect(missing.status).toBe(404);
  });

  it("answers a HEAD with what a GET would send, Content-Length included", async () => {
    const server = http.createServer(getRequestListener(t.app.fetch));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const file of [
        "/assets/with-copies-def456.js",
        "/assets/without-copies-abc123.js",
        "/assets/small-0a1b2c.js",
        "/favicon.svg",
        "/api/tags",
      ]) {
        for (const acceptEncoding of ["br", "gzip", "identity"]) {
          const label = `${file} ${acceptEncoding}`;
          const asked = { "Accept-Encoding": acceptEncoding };
          const got = await rawRequest(`${base}${file}`, "GET", asked);
          const head = await rawRequest(`${base}${file}`, "HEAD", asked);
          expect(head.status, label).toBe(got.status);
          expect(got.headers["content-length"], label).toBe(String(got.body.length));
          for (const name of HEADERS_OF_A_REPRESENTATION) {
            expect(head.headers[name], `${label}: ${name}`).toBe(got.headers[name]);
          }
        }
      }
    } finally {
      server.close();
    }
  });
});
