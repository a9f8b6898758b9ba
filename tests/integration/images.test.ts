import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UPLOAD_MAX_BYTES } from "../../common/constants.ts";
import { createApp } from "../../server/app.ts";
import { composeProcess, type Process } from "../../server/compose.ts";
import type { PublicFetchOptions } from "../../server/http/public-fetch.ts";
import { createLogger } from "../../server/logger.ts";
import { isPublicAddress } from "../../server/media/public-address.ts";
import { resolveSessionSecret } from "../../server/secrets.ts";
import { createLocalObjectStore, type ObjectStore } from "../../server/storage/local.ts";
import { signLocalUploadUrl } from "../../server/storage/upload-url.ts";
import { api } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const EXIF_MARKER = "exif-marker-gps-secret";

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 90, b: 40 } } });

/** A JPEG whose EXIF says "rotate 90°" and carries text that must not survive. */
const jpegWithExif = () =>
  photo(1600, 1000)
    .jpeg()
    .withMetadata({
      orientation: 6,
      exif: { IFD0: { Copyright: EXIF_MARKER, Artist: EXIF_MARKER } },
    })
    .toBuffer();

/** Noise does not compress: a PNG well past the API's 100 KB JSON limit. */
const noisyPng = () =>
  sharp({
    create: {
      width: 700,
      height: 875,
      channels: 3,
      background: "#000",
      noise: { type: "gaussian", mean: 128, sigma: 40 },
    },
  })
    .png()
    .toBuffer();

describe.each(drivers)("image uploads on %s", (driver) => {
  let t: TestApp;
  let admin: string;
  let reader: string;

  const requestUploadUrl = async () => {
    const response = await api(t.app, "POST", "/api/admin/images/upload-url", { cookie: admin });
    expect(response.status).toBe(200);
    return (await response.json()) as { uploadURL: string; objectPath: string };
  };
  const put = (uploadURL: string, body: Uint8Array, contentType = "image/jpeg") => {
    const url = new URL(uploadURL);
    return api(t.app, "PUT", url.pathname + url.search, {
      body: new Uint8Array(body),
      headers: { "Content-Type": contentType },
    });
  };
  const upload = async (body: Uint8Array, contentType: string) => {
    const { uploadURL, objectPath } = await requestUploadUrl();
    const response = await put(uploadURL, body, contentType);
    return { uploadURL, objectPath, response };
  };

  beforeAll(async () => {
    t = await createTestApp(driver);
    admin = await signIn(t, "poet@example.com", { admin: true });
    reader = await signIn(t, "reader@example.com");
  });
  afterAll(() => t.close());

  it("gives upload URLs to admins only", async () => {
    const anonymous = await t.app.request("/api/admin/images/upload-url", { method: "POST" });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).toContain("Unauthorized");
    const user = await t.app.request("/api/admin/images/upload-url", {
      method: "POST",
      headers: { cookie: reader },
    });
    expect(user.status).toBe(403);

    const { uploadURL, objectPath } = await requestUploadUrl();
    const url = new URL(uploadURL);
    expect(url.origin).toBe("http://localhost:3000");
    expect(url.pathname).toMatch(/^\/uploads\/images\/[0-9a-f-]{36}$/);
    expect(url.searchParams.get("signature")).toBeTruthy();
    const expires = Number(url.searchParams.get("expires"));
    expect(expires - Date.now() / 1000).toBeGreaterThan(14 * 60);
    expect(expires - Date.now() / 1000).toBeLessThanOrEqual(15 * 60);
    // docs/product/admin.md, Uploads: the stored path is /objects/images/ + the URL's last segment.
    expect(objectPath).toBe(`/objects/images/${url.pathname.split("/").at(-1)}`);

    const askFor = (body: string) =>
      t.app.request("/api/admin/images/upload-url", {
        method: "POST",
        headers: { cookie: admin, "Content-Type": "application/json" },
        body,
      });
    expect((await askFor("")).status).toBe(200);
    expect((await askFor(JSON.stringify({ contentType: "image/png" }))).status).toBe(200);
    expect((await askFor(JSON.stringify({ contentType: "image/svg+xml" }))).status).toBe(400);
  });

  it("stores a JPEG upright with its EXIF gone, served with its type, nosniff and long caching", async () => {
    const original = await jpegWithExif();
    expect(original.includes(EXIF_MARKER)).toBe(true);
    const { objectPath, response } = await upload(original, "image/jpeg");
    expect(response.status).toBe(200);
    // Orientation 6 turns the 1600x1000 pixels into a 1000x1600 picture.
    expect(await response.json()).toEqual({
      objectPath,
      contentType: "image/jpeg",
      width: 1000,
      height: 1600,
    });

    const served = await t.app.request(objectPath);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.includes(EXIF_MARKER)).toBe(false);
    const metadata = await sharp(bytes).metadata();
    expect(metadata.exif).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
    expect([metadata.width, metadata.height]).toEqual([1000, 1600]);

    for (const width of [480, 960, 1440]) {
      const variant = await t.app.request(`${objectPath}-${width}.webp`);
      expect(variant.status).toBe(200);
      expect(variant.headers.get("content-type")).toBe("image/webp");
      expect(variant.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      const variantBytes = Buffer.from(await variant.arrayBuffer());
      expect(variantBytes.includes(EXIF_MARKER)).toBe(false);
      const size = await sharp(variantBytes).metadata();
      // Never wider than asked, never wider than the original (no upscaling).
      expect(size.width).toBe(Math.min(width, 1000));
      expect(size.exif).toBeUndefined();
    }
    expect((await t.app.request(`${objectPath}-800.webp`)).status).toBe(404);
  });

  it("takes a PNG larger than the API's JSON limit, and a WebP, keeping their types", async () => {
    const png = await noisyPng();
    expect(png.byteLength).toBeGreaterThan(200 * 1024);
    const pngUpload = await upload(png, "image/png");
    expect(pngUpload.response.status).toBe(200);
    expect(await pngUpload.response.json()).toMatchObject({ width: 700, height: 875 });
    const pngServed = await t.app.request(pngUpload.objectPath);
    expect(pngServed.headers.get("content-type")).toBe("image/png");
    const small = await sharp(
      Buffer.from(await (await t.app.request(`${pngUpload.objectPath}-480.webp`)).arrayBuffer()),
    ).metadata();
    expect([small.width, small.height]).toEqual([480, 600]);

    const webp = await photo(400, 500).webp().toBuffer();
    const webpUpload = await upload(webp, "image/webp");
    expect(webpUpload.response.status).toBe(200);
    expect(await webpUpload.response.json()).toMatchObject({
      contentType: "image/webp",
      width: 400,
      height: 500,
    });
    const served = await t.app.request(webpUpload.objectPath);
    expect(served.headers.get("content-type")).toBe("image/webp");
    const largest = await sharp(
      Buffer.from(await (await t.app.request(`${webpUpload.objectPath}-1440.webp`)).arrayBuffer()),
    ).metadata();
    expect(largest.width).toBe(400);
  });

  it("refuses a reused, tampered, moved or expired upload URL with 403", async () => {
    const image = await photo(100, 100).jpeg().toBuffer();
    const { uploadURL } = await upload(image, "image/jpeg");
    const reused = await put(uploadURL, image);
    expect(reused.status).toBe(403);
    expect((await reused.json()).message).toBe("Upload URL has already been used");

    const fresh = new URL((await requestUploadUrl()).uploadURL);
    const tampered = new URL(fresh);
    tampered.searchParams.set("signature", `${fresh.searchParams.get("signature")?.slice(1)}A`);
    expect((await put(tampered.toString(), image)).status).toBe(403);

    const later = new URL(fresh);
    later.searchParams.set("expires", String(Number(fresh.searchParams.get("expires")) + 3600));
    expect((await put(later.toString(), image)).status).toBe(403);

    const other = new URL(fresh);
    other.pathname = "/uploads/images/00000000-0000-4000-8000-000000000000";
    const moved = await put(other.toString(), image);
    expect(moved.status).toBe(403);
    expect((await moved.json()).message).toBe("Invalid upload signature");

    const unsigned = new URL(fresh);
    unsigned.search = "";
    expect((await put(unsigned.toString(), image)).status).toBe(403);

    const secret = resolveSessionSecret(t.config);
    const expiredUrl = signLocalUploadUrl(
      t.config.publicUrl,
      secret,
      "images",
      "11111111-1111-4111-8111-111111111111",
      Math.floor(Date.now() / 1000) - 1,
    );
    const expired = await put(expiredUrl, image);
    expect(expired.status).toBe(403);
    expect((await expired.json()).message).toBe("Upload URL has expired");

    // The untouched URL still works: refusals above did not spend it.
    expect((await put(fresh.toString(), image)).status).toBe(200);
  });

  it("refuses SVG, GIF, HTML, text and broken images with 415 and stores nothing", async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
    );
    const gif = await photo(10, 10).gif().toBuffer();
    const html = Buffer.from("<!doctype html><script>alert(1)</script>");
    const text = Buffer.from("just words");
    const truncatedJpeg = (await photo(300, 300).jpeg().toBuffer()).subarray(0, 200);
    for (const [body, type] of [
      [svg, "image/svg+xml"],
      [gif, "image/gif"],
      [html, "image/jpeg"],
      [text, "text/plain"],
      [truncatedJpeg, "image/jpeg"],
    ] as const) {
      const { objectPath, response } = await upload(body, type);
      expect(response.status, type).toBe(415);
      expect((await t.app.request(objectPath)).status).toBe(404);
    }
  });

  it("refuses an image whose pixel count would exhaust memory (a decompression bomb)", async () => {
    const bomb = await sharp({
      create: { width: 10_000, height: 6000, channels: 3, background: "#fff" },
      limitInputPixels: false,
    })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.byteLength).toBeLessThan(UPLOAD_MAX_BYTES);
    const { response } = await upload(bomb, "image/png");
    expect(response.status).toBe(415);
  });

  it("refuses a body over 5,242,880 bytes with 413, declared or not", async () => {
    const tooBig = new Uint8Array(UPLOAD_MAX_BYTES + 1);
    tooBig.set(await photo(10, 10).jpeg().toBuffer());
    const declared = await upload(tooBig, "image/jpeg");
    expect(declared.response.status).toBe(413);
    expect((await declared.response.json()).message).toBe("File size must be less than 5.0MB");

    // A streamed body has no Content-Length: the count of received bytes decides.
    const { uploadURL, objectPath } = await requestUploadUrl();
    const url = new URL(uploadURL);
    const chunk = new Uint8Array(1024 * 1024);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > UPLOAD_MAX_BYTES) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const streamed = await t.app.request(url.pathname + url.search, {
      method: "PUT",
      headers: { "Content-Type": "image/jpeg" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect((await t.app.request(objectPath)).status).toBe(404);
  });

  it("makes a missing variant of an image stored without them (demo covers) once, on request", async () => {
    const id = "33333333-3333-4333-8333-333333333333";
    const store = createLocalObjectStore(t.dataDir);
    await store.put(`images/${id}`, await photo(1200, 1500).webp().toBuffer());
    const variant = await t.app.request(`/objects/images/${id}-960.webp`);
    expect(variant.status).toBe(200);
    expect(variant.headers.get("content-type")).toBe("image/webp");
    expect((await sharp(Buffer.from(await variant.arrayBuffer())).metadata()).width).toBe(960);
    expect(await store.exists(`images/${id}-960.webp`)).toBe(true);
    expect((await t.app.request(`/objects/images/${id.replace("3", "4")}-960.webp`)).status).toBe(
      404,
    );
  });

  it("refuses ids that are not upload ids, and never reads or writes outside the store", async () => {
    const image = await photo(10, 10).jpeg().toBuffer();
    fs.writeFileSync(path.join(t.dataDir, "outside"), image);
    const { uploadURL } = await requestUploadUrl();
    const query = new URL(uploadURL).search;
    for (const id of ["..%2F..%2Foutside", "..%2Foutside", "%2E%2E", "not-a-uuid", "a.b"]) {
      const response = await t.app.request(`/uploads/images/${id}${query}`, {
        method: "PUT",
        body: new Uint8Array(image),
      });
      expect([403, 404], id).toContain(response.status);
    }
    for (const name of ["..%2Foutside", "..%2F..%2Foutside", "%2E%2E%2Foutside", "x.webp"]) {
      expect((await t.app.request(`/objects/images/${name}`)).status, name).toBe(404);
    }
    expect(fs.readdirSync(t.dataDir)).not.toContain("images");
  });
});

describe.each(drivers)("image URL validation on %s", (driver) => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  let origin: http.Server;
  let port = 0;
  let lastHost: string | undefined;
  let endlessResponseClosed: Promise<void>;
  let pngBytes: Buffer;

  const names: Record<string, string[]> = {
    "evil.test": ["127.0.0.1"],
    "metadata.test": ["169.254.169.254"],
    "images.test": ["127.0.0.1"],
    "internal.test": ["10.0.0.7"],
    "mixed.test": ["127.0.0.1", "192.168.0.9"],
  };
  const resolveHost = async (hostname: string) => {
    if (hostname === "hanging-dns.test") return new Promise<string[]>(() => {});
    const addresses = names[hostname];
    if (!addresses) throw new Error(`ENOTFOUND ${hostname}`);
    return addresses;
  };

  /** The app as a server runs it (public addresses only), with test DNS answers. */
  let strictApp: ReturnType<typeof createApp>;
  /** Also lets the loopback test server in, standing for a public image host. */
  let loopbackApp: ReturnType<typeof createApp>;
  /** Another instance on the same database, whose URL checks resolve and admit as given. */
  const instances: Process[] = [];
  const appWith = async (urlCheck: PublicFetchOptions) => {
    const instance = await composeProcess({
      config: t.config,
      logger: createLogger("silent"),
      handle: t.handle,
      objectStore: createLocalObjectStore(t.dataDir),
      urlCheck,
    });
    instances.push(instance);
    return createApp({
      config: t.config,
      logger: createLogger("silent"),
      services: instance.services,
      objectStore: instance.objectStore,
    });
  };

  const validate = (app: ReturnType<typeof createApp>, url: unknown, cookie = admin) =>
    api(app, "POST", "/api/admin/images/validate-url", { body: { url }, cookie });
  const expectRefused = async (response: Response, reason: RegExp) => {
    expect(response.status).toBe(400);
    const body = (await response.json()) as { message: string; errors: { url: string[] } };
    expect(body.message).toBe("Please enter a valid image URL");
    expect(body.errors.url[0]).toMatch(reason);
  };

  beforeAll(async () => {
    t = await createTestApp(driver);
    admin = await signIn(t, "poet@example.com", { admin: true });
    reader = await signIn(t, "reader@example.com");
    pngBytes = await photo(40, 50).png().toBuffer();
    let closeEndless: () => void = () => {};
    endlessResponseClosed = new Promise((resolve) => {
      closeEndless = resolve;
    });
    origin = http.createServer((request, response) => {
      lastHost = request.headers.host;
      const here = `http://images.test:${port}`;
      switch (request.url) {
        case "/cover.png":
          response.writeHead(200, { "Content-Type": "image/png" }).end(pngBytes);
          return;
        case "/page.html":
          response.writeHead(200, { "Content-Type": "image/png" }).end("<!doctype html><p>hi");
          return;
        case "/missing.png":
          response.writeHead(404).end();
          return;
        case "/slow.png":
          return;
        case "/to-cover":
          response.writeHead(302, { Location: `${here}/cover.png` }).end();
          return;
        case "/to-internal":
          response.writeHead(302, { Location: `http://internal.test:${port}/cover.png` }).end();
          return;
        case "/to-loopback-literal":
          response.writeHead(301, { Location: `http://127.0.0.2:${port}/cover.png` }).end();
          return;
        case "/to-file":
          response.writeHead(302, { Location: "file:///etc/passwd" }).end();
          return;
        case "/loop":
          response.writeHead(302, { Location: "/loop" }).end();
          return;
        case "/endless.png": {
          response.on("close", () => closeEndless());
          response.writeHead(200, { "Content-Type": "image/png" });
          response.write(pngBytes.subarray(0, 64));
          const filler = Buffer.alloc(64 * 1024);
          const timer = setInterval(() => response.write(filler), 5);
          response.on("close", () => clearInterval(timer));
          return;
        }
        default:
          response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
    port = (origin.address() as AddressInfo).port;
    strictApp = await appWith({ resolveHost });
    loopbackApp = await appWith({
      resolveHost,
      isAllowedAddress: (address) => address === "127.0.0.1" || isPublicAddress(address),
      timeoutMs: 500,
    });
  });
  afterAll(async () => {
    origin.closeAllConnections();
    await new Promise((resolve) => origin.close(resolve));
    for (const instance of instances) instance.close();
    await t.close();
  });

  it("is for admins only", async () => {
    const anonymous = await validate(strictApp, "https://example.com/a.png", "");
    expect(anonymous.status).toBe(401);
    expect((await validate(strictApp, "https://example.com/a.png", reader)).status).toBe(403);
  });

  it("answers valid with the type read from the image's own bytes", async () => {
    const response = await validate(loopbackApp, `http://images.test:${port}/cover.png`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ valid: true, contentType: "image/png" });
    // images.test exists only in the test resolver: reaching it proves the connection went to
    // the checked address, and the origin still saw the URL's own name.
    expect(lastHost).toBe(`images.test:${port}`);
  });

  it("follows a redirect to a public image", async () => {
    const response = await validate(loopbackApp, `http://images.test:${port}/to-cover`);
    expect(response.status).toBe(200);
  });

  it("refuses schemes other than http and https", async () => {
    for (const url of ["ftp://example.com/a.png", "file:///etc/passwd", "javascript:alert(1)"]) {
      await expectRefused(await validate(strictApp, url), /Only http and https/);
    }
    await expectRefused(await validate(strictApp, "not a url"), /Not a valid URL/);
    const empty = await validate(strictApp, "");
    expect(empty.status).toBe(400);
    expect((await empty.json()).message).toBe("Please enter a valid image URL");
  });

  it("refuses names and literals that reach the server's own network", async () => {
    for (const url of [
      `http://evil.test:${port}/cover.png`,
      "http://metadata.test/latest/meta-data/",
      `http://127.0.0.1:${port}/cover.png`,
      `http://[::ffff:127.0.0.1]:${port}/cover.png`,
      "http://[::1]/",
      "http://169.254.169.254/latest/meta-data/",
      "http://0.0.0.0/",
      "http://10.0.0.1/",
      "http://[fd00::1]/",
      // Decimal, hex and octal spellings of 127.0.0.1 and 169.254.169.254.
      `http://2130706433:${port}/cover.png`,
      `http://0x7f.0.0.1:${port}/cover.png`,
      `http://0177.0.0.1:${port}/cover.png`,
      "http://2852039166/latest/meta-data/",
    ]) {
      await expectRefused(await validate(strictApp, url), /not a public internet address/);
    }
    await expectRefused(
      await validate(loopbackApp, `http://mixed.test:${port}/cover.png`),
      /not a public internet address/,
    );
    await expectRefused(await validate(strictApp, "http://unknown.test/"), /could not be resolved/);
  });

  it("checks every redirect again, and follows at most three", async () => {
    await expectRefused(
      await validate(loopbackApp, `http://images.test:${port}/to-internal`),
      /internal\.test is not a public internet address/,
    );
    await expectRefused(
      await validate(loopbackApp, `http://images.test:${port}/to-loopback-literal`),
      /not a public internet address/,
    );
    await expectRefused(
      await validate(loopbackApp, `http://images.test:${port}/to-file`),
      /Only http and https/,
    );
    await expectRefused(
      await validate(loopbackApp, `http://images.test:${port}/loop`),
      /More than 3 redirects/,
    );
  });

  it("refuses content that is not an image, whatever its Content-Type says, and error answers", async () => {
    await expectRefused(
      await validate(loopbackApp, `http://images.test:${port}/page.html`),
      /Not a JPEG, PNG or WebP/,
    );
    await expectRefused(
      await validate(loopbackApp, `http://images.test:${port}/missing.png`),
      /answered 404/,
    );
  });

  it("gives up on a server that does not answer in time", async () => {
    const started = Date.now();
    await expectRefused(
      await validate(loopbackApp, `http://images.test:${port}/slow.png`),
      /No answer within 0.5 s/,
    );
    await expectRefused(
      await validate(loopbackApp, "http://hanging-dns.test/cover.png"),
      /No answer within 0.5 s/,
    );
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("reads only the first bytes of a body and then hangs up", async () => {
    // The origin would stream forever: the answer proves the check stopped reading.
    const response = await validate(loopbackApp, `http://images.test:${port}/endless.png`);
    expect(await response.json()).toEqual({ valid: true, contentType: "image/png" });
    await endlessResponseClosed;
  });
  it("answers 429 with Retry-After past 30 checks a minute, so a session cannot scan", async () => {
    const busyAdmin = await signIn(t, "busy-poet@example.com", { admin: true });
    const statuses: number[] = [];
    for (let check = 0; check < 31; check++) {
      statuses.push((await validate(strictApp, "http://evil.test/x.png", busyAdmin)).status);
    }
    expect(statuses.slice(0, 30).every((status) => status === 400)).toBe(true);
    const limited = await validate(strictApp, "http://evil.test/x.png", busyAdmin);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

/**
 * A bucket held in memory, standing in for S3 (no S3 service runs here): the presigned URL's
 * shape is tested in server/storage/s3.test.ts; this covers what the server does around it.
 */
function createMemoryBucket(): ObjectStore & { objects: Map<string, Uint8Array> } {
  const objects = new Map<string, Uint8Array>();
  return {
    objects,
    async put(key, body) {
      objects.set(key, body);
    },
    async putIfAbsent(key, body) {
      if (objects.has(key)) return false;
      objects.set(key, body);
      return true;
    },
    async get(key) {
      return objects.get(key);
    },
    async getRange(key, start, end) {
      const bytes = objects.get(key);
      return (
        bytes && { body: new Blob([bytes.slice(start, end + 1)]).stream(), size: bytes.length }
      );
    },
    async exists(key) {
      return objects.has(key);
    },
    async delete(key) {
      objects.delete(key);
    },
    async presignUpload(key, { expiresInSeconds }) {
      return `https://covers.s3.example/${key}?X-Amz-Expires=${expiresInSeconds}&X-Amz-Signature=f00d`;
    },
  };
}

describe.each(drivers)("image uploads to a bucket on %s", (driver) => {
  let t: TestApp;
  let admin: string;
  let bucket: ReturnType<typeof createMemoryBucket>;
  let app: ReturnType<typeof createApp>;

  /** What the browser does: ask for a URL, then PUT the file straight into the bucket. */
  const uploadToBucket = async (body: Uint8Array) => {
    const response = await app.request("/api/admin/images/upload-url", {
      method: "POST",
      headers: { cookie: admin, "Content-Type": "application/json" },
      body: JSON.stringify({ contentType: "image/jpeg" }),
    });
    expect(response.status).toBe(200);
    const { uploadURL, objectPath } = (await response.json()) as {
      uploadURL: string;
      objectPath: string;
    };
    const url = new URL(uploadURL);
    bucket.objects.set(url.pathname.slice(1), body);
    return { url, objectPath };
  };

  beforeAll(async () => {
    bucket = createMemoryBucket();
    t = await createTestApp(driver, { objectStore: bucket });
    admin = await signIn(t, "poet@example.com", { admin: true });
    app = t.app;
  });
  afterAll(() => t.close());

  it("hands out a short-lived bucket URL whose last segment is the image id", async () => {
    const { url, objectPath } = await uploadToBucket(new Uint8Array());
    expect(url.origin).toBe("https://covers.s3.example");
    expect(url.searchParams.get("X-Amz-Expires")).toBe("300");
    expect(objectPath).toBe(`/objects/images/${url.pathname.split("/").at(-1)}`);
    expect(url.pathname).toMatch(/^\/uploads\/images\/[0-9a-f-]{36}$/);
  });

  it("processes the upload when its cover is first read: metadata gone, variants made", async () => {
    const { url, objectPath } = await uploadToBucket(await jpegWithExif());
    const served = await app.request(objectPath);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.includes(EXIF_MARKER)).toBe(false);
    expect((await sharp(bytes).metadata()).width).toBe(1000);
    const variant = await app.request(`${objectPath}-480.webp`);
    expect(variant.headers.get("content-type")).toBe("image/webp");
    expect(bucket.objects.has(url.pathname.slice(1))).toBe(false);
  });

  it("drops a bucket upload that is not an accepted image or is too large", async () => {
    const svg = await uploadToBucket(new TextEncoder().encode("<svg></svg>"));
    expect((await app.request(svg.objectPath)).status).toBe(404);
    expect(bucket.objects.has(svg.url.pathname.slice(1))).toBe(false);

    const huge = new Uint8Array(UPLOAD_MAX_BYTES + 1);
    huge.set(await photo(10, 10).jpeg().toBuffer());
    const tooLarge = await uploadToBucket(huge);
    expect((await app.request(tooLarge.objectPath)).status).toBe(404);
    expect(bucket.objects.has(tooLarge.url.pathname.slice(1))).toBe(false);
  });

  it("does not take uploads on this server when a bucket does", async () => {
    const url = signLocalUploadUrl(
      t.config.publicUrl,
      resolveSessionSecret(t.config),
      "images",
      "22222222-2222-4222-8222-222222222222",
      Math.floor(Date.now() / 1000) + 60,
    );
    const response = await app.request(new URL(url).pathname + new URL(url).search, {
      method: "PUT",
      body: new Uint8Array(await photo(10, 10).jpeg().toBuffer()),
    });
    expect(response.status).toBe(404);
  });
});
