import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIO_UPLOAD_MAX_BYTES } from "../../common/constants.ts";
import { createApp } from "../../server/app.ts";
import { composeProcess } from "../../server/compose.ts";
import { createLogger } from "../../server/logger.ts";
import { createLocalObjectStore, type ObjectStore } from "../../server/storage/local.ts";
import { createS3ObjectStore } from "../../server/storage/s3.ts";
import { createMp3Frames, createOggOpusHeader, createWav } from "../helpers/audio-files.ts";
import { drivers } from "../helpers/database.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

type AnyApp = Pick<TestApp["app"], "request">;

/** Asks `app` for an audio upload URL as `cookie`. */
async function requestUploadUrl(app: AnyApp, cookie: string) {
  const response = await app.request("/api/admin/audio/upload-url", {
    method: "POST",
    headers: { cookie },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { uploadURL: string; objectPath: string };
}

const ranged = (app: AnyApp, objectPath: string, range: string) =>
  app.request(objectPath, { headers: { Range: range } });

/** First bytes, a middle stretch, the last 500 and an open end: each 206 with its bytes. */
async function expectRangesServed(app: AnyApp, objectPath: string, file: Uint8Array) {
  const size = file.byteLength;
  for (const [range, start, end] of [
    ["bytes=0-99", 0, 99],
    ["bytes=1000-1999", 1000, 1999],
    ["bytes=-500", size - 500, size - 1],
    [`bytes=${size - 10}-`, size - 10, size - 1],
    [`bytes=${size - 10}-${size + 5000}`, size - 10, size - 1],
  ] as const) {
    const response = await ranged(app, objectPath, range);
    expect(response.status, range).toBe(206);
    expect(response.headers.get("content-range"), range).toBe(`bytes ${start}-${end}/${size}`);
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    expect(response.headers.get("content-length")).toBe(String(end - start + 1));
    expect(response.headers.get("content-type")).toBe("audio/wav");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(new Uint8Array(await response.arrayBuffer()), range).toEqual(
      file.subarray(start, end + 1),
    );
  }
  for (const range of [`bytes=${size}-`, `bytes=${size + 100}-${size + 200}`, "bytes=-0"]) {
    const response = await ranged(app, objectPath, range);
    expect(response.status, range).toBe(416);
    expect(response.headers.get("content-range")).toBe(`bytes */${size}`);
  }
}

describe.each(drivers)("audio uploads on %s", (driver) => {
  let t: TestApp;
  let admin: string;
  let reader: string;

  const put = (uploadURL: string, body: Uint8Array, contentType = "audio/wav") => {
    const url = new URL(uploadURL);
    return t.app.request(url.pathname + url.search, {
      method: "PUT",
      headers: { "Content-Type": contentType },
      body: new Uint8Array(body),
    });
  };
  const upload = async (body: Uint8Array, contentType = "audio/wav") => {
    const { uploadURL, objectPath } = await requestUploadUrl(t.app, admin);
    return { uploadURL, objectPath, response: await put(uploadURL, body, contentType) };
  };
  const storedAudio = () => {
    const folder = path.join(t.dataDir, "objects", "audio");
    return fs.existsSync(folder) ? fs.readdirSync(folder) : [];
  };

  beforeAll(async () => {
    t = await createTestApp(driver);
    admin = await signIn(t, "poet@example.com", { admin: true });
    reader = await signIn(t, "reader@example.com");
  });
  afterAll(() => t.close());

  it("gives upload URLs to admins only, each this server's signed URL for one id", async () => {
    const anonymous = await t.app.request("/api/admin/audio/upload-url", { method: "POST" });
    expect(anonymous.status).toBe(401);
    const user = await t.app.request("/api/admin/audio/upload-url", {
      method: "POST",
      headers: { cookie: reader },
    });
    expect(user.status).toBe(403);

    const { uploadURL, objectPath } = await requestUploadUrl(t.app, admin);
    const url = new URL(uploadURL);
    expect(url.origin).toBe("http://localhost:3000");
    expect(url.pathname).toMatch(/^\/uploads\/audio\/[0-9a-f-]{36}$/);
    expect(url.searchParams.get("signature")).toBeTruthy();
    expect(objectPath).toBe(`/objects/audio/${url.pathname.split("/").at(-1)}`);

    const askFor = (contentType: string) =>
      t.app.request("/api/admin/audio/upload-url", {
        method: "POST",
        headers: { cookie: admin, "Content-Type": "application/json" },
        body: JSON.stringify({ contentType }),
      });
    expect((await askFor("audio/mpeg")).status).toBe(200);
    expect((await askFor("text/html")).status).toBe(400);
  });

  it("stores a WAV as it was sent and serves it whole, with its type, nosniff and long caching", async () => {
    const wav = createWav(1);
    const { objectPath, response } = await upload(wav);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ objectPath, contentType: "audio/wav" });

    const served = await t.app.request(objectPath);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("audio/wav");
    expect(served.headers.get("content-length")).toBe(String(wav.byteLength));
    expect(served.headers.get("accept-ranges")).toBe("bytes");
    expect(served.headers.get("content-range")).toBeNull();
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(wav);

    const head = await t.app.request(objectPath, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(wav.byteLength));
    expect(head.headers.get("content-type")).toBe("audio/wav");
    expect(await head.text()).toBe("");
    const headRange = await t.app.request(objectPath, {
      method: "HEAD",
      headers: { Range: "bytes=0-9" },
    });
    expect(headRange.status).toBe(206);
    expect(headRange.headers.get("content-range")).toBe(`bytes 0-9/${wav.byteLength}`);
  });

  it("answers ranges (first bytes, middle, suffix) with 206 and an unsatisfiable one with 416", async () => {
    const wav = createWav(2);
    const { objectPath } = await upload(wav);
    await expectRangesServed(t.app, objectPath, wav);
  });

  it("reads only the asked range from the store, never the whole file", async () => {
    const wav = createWav(3);
    const { objectPath } = await upload(wav);
    const local = createLocalObjectStore(t.dataDir);
    const readsWhole: string[] = [];
    const store: ObjectStore = {
      ...local,
      async get(key) {
        readsWhole.push(key);
        return local.get(key);
      },
    };
    // Another instance on the same database and files, whose store counts whole reads.
    const other = await composeProcess({
      config: t.config,
      logger: createLogger("silent"),
      handle: t.handle,
      objectStore: store,
    });
    const app = createApp({
      config: t.config,
      logger: createLogger("silent"),
      services: other.services,
      objectStore: other.objectStore,
    });
    await expectRangesServed(app, objectPath, wav);
    expect((await app.request(objectPath)).status).toBe(200);
    expect(readsWhole).toEqual([]);
    other.close();
  });

  it("tells MP3, Ogg Opus and M4A by their bytes, whatever the browser called them", async () => {
    const m4a = new Uint8Array(64);
    m4a.set([0, 0, 0, 0x20], 0);
    m4a.set(new TextEncoder().encode("ftypM4A "), 4);
    for (const [bytes, sentAs, servedAs] of [
      [createMp3Frames(20), "application/octet-stream", "audio/mpeg"],
      [createOggOpusHeader(), "audio/opus", "audio/ogg"],
      [m4a, "audio/x-m4a", "audio/mp4"],
    ] as const) {
      const { objectPath, response } = await upload(bytes, sentAs);
      expect(response.status, servedAs).toBe(200);
      const served = await t.app.request(objectPath);
      expect(served.headers.get("content-type")).toBe(servedAs);
    }
  });

  it("refuses bytes that are not audio with 415 'Please select an audio file' and stores nothing", async () => {
    const before = storedAudio();
    const png = await sharp({
      create: { width: 8, height: 8, channels: 3, background: "#c2561b" },
    })
      .png()
      .toBuffer();
    const mp4Video = new Uint8Array(64);
    mp4Video.set([0, 0, 0, 0x20], 0);
    mp4Video.set(new TextEncoder().encode("ftypisom"), 4);
    for (const [body, sentAs] of [
      [new TextEncoder().encode("<!doctype html><script>alert(1)</script>"), "audio/mpeg"],
      [new TextEncoder().encode("just words, named song.mp3"), "audio/mpeg"],
      [new Uint8Array(png), "audio/wav"],
      [mp4Video, "audio/mp4"],
      [new Uint8Array(), "audio/wav"],
    ] as const) {
      const { objectPath, response } = await upload(body, sentAs);
      expect(response.status, sentAs).toBe(415);
      expect((await response.json()).message).toBe("Please select an audio file");
      expect((await t.app.request(objectPath)).status).toBe(404);
    }
    expect(storedAudio()).toEqual(before);
  });

  it("refuses a file over 25 MB with 413 'File size must be less than 25.0MB' and stores nothing", async () => {
    const before = storedAudio();
    const tooLarge = new Uint8Array(AUDIO_UPLOAD_MAX_BYTES + 1);
    tooLarge.set(createWav(0.1));
    const { objectPath, response } = await upload(tooLarge);
    expect(response.status).toBe(413);
    expect((await response.json()).message).toBe("File size must be less than 25.0MB");
    expect((await t.app.request(objectPath)).status).toBe(404);
    expect(storedAudio()).toEqual(before);

    // An image's limit does not apply: a recording past 5 MB is taken.
    const long = createWav(400);
    expect(long.byteLength).toBeGreaterThan(5 * 1024 * 1024);
    expect((await upload(long)).response.status).toBe(200);
  });

  it("takes an upload URL once, and never one signed for another kind", async () => {
    const wav = createWav(0.5);
    const { uploadURL } = await upload(wav);
    const reused = await put(uploadURL, wav);
    expect(reused.status).toBe(403);
    expect((await reused.json()).message).toBe("Upload URL has already been used");

    const imageUrl = new URL(
      (
        await (
          await t.app.request("/api/admin/images/upload-url", {
            method: "POST",
            headers: { cookie: admin },
          })
        ).json()
      ).uploadURL,
    );
    imageUrl.pathname = imageUrl.pathname.replace("/uploads/images/", "/uploads/audio/");
    const moved = await put(imageUrl.toString(), wav);
    expect(moved.status).toBe(403);
    expect((await moved.json()).message).toBe("Invalid upload signature");
  });

  it("answers 404 for names that are not upload ids", async () => {
    for (const name of ["..%2F..%2Foutside", "not-an-id", "%2E%2E"]) {
      expect((await t.app.request(`/objects/audio/${name}`)).status, name).toBe(404);
    }
  });
});

describe.each(drivers)("audio uploads to an S3 bucket (s3rver) on %s", (driver) => {
  let t: TestApp;
  let admin: string;
  let app: TestApp["app"];
  let bucketServer: S3rver;
  let bucketDir: string;
  let bucket: ObjectStore;

  /** What the browser does: ask for a presigned URL, then PUT the file to the bucket itself. */
  const uploadToBucket = async (body: Uint8Array) => {
    const { uploadURL, objectPath } = await requestUploadUrl(app, admin);
    const response = await fetch(uploadURL, { method: "PUT", body: new Uint8Array(body) });
    expect(response.status).toBe(200);
    return { uploadURL: new URL(uploadURL), objectPath };
  };
  const pendingUploads = () => {
    const folder = path.join(bucketDir, "readings", "uploads", "audio");
    return fs.existsSync(folder)
      ? fs.readdirSync(folder).filter((name) => !name.startsWith("."))
      : [];
  };

  beforeAll(async () => {
    bucketDir = fs.mkdtempSync(path.join(os.tmpdir(), "ev-s3rver-"));
    bucketServer = new S3rver({
      address: "127.0.0.1",
      port: 0,
      silent: true,
      directory: bucketDir,
      configureBuckets: [{ name: "readings" }],
    });
    const { port } = await bucketServer.run();
    bucket = createS3ObjectStore({
      bucket: "readings",
      region: "us-east-1",
      endpoint: `http://127.0.0.1:${port}`,
      accessKeyId: "S3RVER",
      secretAccessKey: "S3RVER",
    });
    t = await createTestApp(driver, { objectStore: bucket });
    admin = await signIn(t, "poet@example.com", { admin: true });
    app = t.app;
  });
  afterAll(async () => {
    await bucketServer.close();
    fs.rmSync(bucketDir, { recursive: true, force: true });
    await t.close();
  });

  it("checks a bucket upload the first time it is read, then serves ranges from the bucket", async () => {
    const wav = createWav(2);
    const { uploadURL, objectPath } = await uploadToBucket(wav);
    expect(uploadURL.pathname).toMatch(/^\/readings\/uploads\/audio\/[0-9a-f-]{36}$/);
    expect(objectPath).toBe(`/objects/audio/${uploadURL.pathname.split("/").at(-1)}`);
    expect(uploadURL.searchParams.get("X-Amz-Expires")).toBe("300");

    const served = await app.request(objectPath);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("audio/wav");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(wav);
    expect(pendingUploads()).toEqual([]);
    await expectRangesServed(app, objectPath, wav);
  });

  it("drops a bucket upload that is not audio, or is over 25 MB, without storing it", async () => {
    const page = await uploadToBucket(new TextEncoder().encode("<!doctype html><p>not a song"));
    expect((await app.request(page.objectPath)).status).toBe(404);

    const huge = new Uint8Array(AUDIO_UPLOAD_MAX_BYTES + 1);
    huge.set(createWav(0.1));
    const tooLarge = await uploadToBucket(huge);
    expect(
      (await app.request(tooLarge.objectPath, { headers: { Range: "bytes=0-9" } })).status,
    ).toBe(404);
    expect(pendingUploads()).toEqual([]);
    for (const { objectPath } of [page, tooLarge]) {
      expect(await bucket.exists(objectPath.replace("/objects/", ""))).toBe(false);
    }
  });
});
