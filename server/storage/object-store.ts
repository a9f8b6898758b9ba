import type { Config } from "../config.ts";
import { createLocalObjectStore, type ObjectStore } from "./local.ts";

export type S3Settings = NonNullable<Config["s3"]>;

/**
 * The configured image storage: the S3 bucket when S3_BUCKET is set, else DATA_DIR/objects. The
 * S3 client is loaded only when a bucket is configured: it is a fifth of a second of every start.
 */
export async function createObjectStore(config: Config): Promise<ObjectStore> {
  if (!config.s3) return createLocalObjectStore(config.dataDir);
  const { createS3ObjectStore } = await import("./s3.ts");
  return createS3ObjectStore(config.s3);
}

/**
 * Where browsers send presigned uploads, for the Content-Security-Policy's connect-src: the
 * custom endpoint, or AWS's virtual-hosted bucket name (path-style when the name has dots, which
 * a TLS wildcard certificate cannot cover).
 */
export function s3UploadOrigin(settings: S3Settings): string {
  if (settings.endpoint) return new URL(settings.endpoint).origin;
  return settings.bucket.includes(".")
    ? `https://s3.${settings.region}.amazonaws.com`
    : `https://${settings.bucket}.s3.${settings.region}.amazonaws.com`;
}
