import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { ObjectStore } from "./local.ts";
import type { S3Settings } from "./object-store.ts";

const statusOf = (error: unknown) =>
  error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;

/** The object's whole size from a ranged answer's `Content-Range: bytes 0-99/12345`. */
function sizeFromContentRange(contentRange: string | undefined): number {
  const size = /\/(\d+)$/.exec(contentRange ?? "")?.[1];
  // A store that ignored the Range would have sent the whole object as if it were the range.
  if (size === undefined)
    throw new Error("The bucket answered a ranged read without a Content-Range");
  return Number(size);
}

/**
 * Stored images and audio in an S3-compatible bucket (S3_* variables). A custom endpoint (MinIO, R2, …)
 * is addressed path-style, which every such service understands.
 */
export function createS3ObjectStore(settings: S3Settings): ObjectStore {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.endpoint !== undefined,
    credentials:
      settings.accessKeyId && settings.secretAccessKey
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
        : undefined,
  });
  const Bucket = settings.bucket;
  return {
    async put(key, body) {
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body }));
    },
    async putIfAbsent(key, body) {
      try {
        await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, IfNoneMatch: "*" }));
        return true;
      } catch (error) {
        // 412: the object exists; 409: another conditional write to it is in flight.
        if (statusOf(error) === 412 || statusOf(error) === 409) return false;
        throw error;
      }
    },
    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return object.Body ? await object.Body.transformToByteArray() : undefined;
      } catch (error) {
        if (statusOf(error) === 404) return undefined;
        throw error;
      }
    },
    async getRange(key, start, end) {
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket, Key: key, Range: `bytes=${start}-${end}` }),
        );
        if (!object.Body) return undefined;
        return {
          body: object.Body.transformToWebStream(),
          size: sizeFromContentRange(object.ContentRange),
        };
      } catch (error) {
        if (statusOf(error) === 404) return undefined;
        throw error;
      }
    },
    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (error) {
        if (statusOf(error) === 404) return false;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    presignUpload(key, { contentType, expiresInSeconds }) {
      // A signed Content-Type makes the bucket refuse a PUT that declares any other type.
      return getSignedUrl(
        client,
        new PutObjectCommand({ Bucket, Key: key, ContentType: contentType }),
        {
          expiresIn: expiresInSeconds,
          signableHeaders: contentType ? new Set(["content-type"]) : undefined,
        },
      );
    },
  };
}
