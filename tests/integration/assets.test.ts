import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/** Decision 009: every text file under /assets goes out compressed when the client accepts it. */
describe("built assets", () => {
  let t: TestApp;
  let clientDir: string;
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
});
