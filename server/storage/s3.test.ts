import { describe, expect, it } from "vitest";
import { s3UploadOrigin } from "./object-store.ts";
import { createS3ObjectStore } from "./s3.ts";

// No S3 service runs here: these check the presigned URL's shape, which needs no network.
const settings = {
  bucket: "covers",
  region: "eu-west-1",
  endpoint: undefined,
  accessKeyId: "AKIAEXAMPLE",
  secretAccessKey: "secret-example",
};

describe("S3 presigned uploads", () => {
  it("signs a short-lived PUT bound to its content type", async () => {
    const store = createS3ObjectStore(settings);
    const presignUpload = store.presignUpload;
    if (!presignUpload) throw new Error("the S3 store presigns uploads");
    const url = new URL(
      await presignUpload("uploads/abc-123", { contentType: "image/png", expiresInSeconds: 300 }),
    );
    expect(url.protocol).toBe("https:");
    expect(url.hostname).toBe("covers.s3.eu-west-1.amazonaws.com");
    expect(url.pathname).toBe("/uploads/abc-123");
    expect(url.pathname.split("/").at(-1)).toBe("abc-123");
    expect(url.searchParams.get("X-Amz-Expires")).toBe("300");
    expect(url.searchParams.get("X-Amz-Algorithm")).toBe("AWS4-HMAC-SHA256");
    expect(url.searchParams.get("X-Amz-Credential")).toMatch(
      /^AKIAEXAMPLE\/\d{8}\/eu-west-1\/s3\//,
    );
    expect(url.searchParams.get("X-Amz-SignedHeaders")?.split(";")).toEqual(
      expect.arrayContaining(["content-type", "host"]),
    );
    expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("names the origin browsers upload to, as the presigned URL does", async () => {
    const store = createS3ObjectStore(settings);
    const url = new URL((await store.presignUpload?.("uploads/a", { expiresInSeconds: 60 })) ?? "");
    expect(s3UploadOrigin(settings)).toBe(url.origin);
    const custom = { ...settings, endpoint: "http://minio.internal:9000/" };
    expect(s3UploadOrigin(custom)).toBe("http://minio.internal:9000");
  });

  it("addresses a custom endpoint path-style", async () => {
    const store = createS3ObjectStore({ ...settings, endpoint: "http://minio.internal:9000/" });
    const url = new URL(
      (await store.presignUpload?.("uploads/xyz", { expiresInSeconds: 60 })) ?? "",
    );
    expect(url.origin).toBe("http://minio.internal:9000");
    expect(url.pathname).toBe("/covers/uploads/xyz");
    expect(url.searchParams.get("X-Amz-SignedHeaders")).toBe("host");
  });
});
