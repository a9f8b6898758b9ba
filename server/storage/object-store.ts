import type { Config } from "../config.ts";
import { createLocalObjectStore, type ObjectStore } from "./local.ts";
import { createS3ObjectStore } from "./s3.ts";

/** The configured image storage: the S3 bucket when S3_BUCKET is set, else DATA_DIR/objects. */
export function createObjectStore(config: Config): ObjectStore {
  return config.s3 ? createS3ObjectStore(config.s3) : createLocalObjectStore(config.dataDir);
}
