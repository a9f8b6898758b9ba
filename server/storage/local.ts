import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";

/** A stretch of a stored object, start to end inclusive, and the object's whole size. */
export interface ObjectRange {
  body: ReadableStream<Uint8Array>;
  size: number;
}

/**
 * Stored images and audio on local disk under DATA_DIR/objects (S3-compatible storage is the
 * other kind).
 */
export interface ObjectStore {
  /** Writes atomically: a reader never sees a half-written object. */
  put(key: string, body: Uint8Array): Promise<void>;
  /**
   * Writes only if nothing is stored under the key yet, atomically: of two racing writers exactly
   * one gets true. This is what makes an upload URL single-use.
   */
  putIfAbsent(key: string, body: Uint8Array): Promise<boolean>;
  get(key: string): Promise<Uint8Array | undefined>;
  /**
   * Bytes `start` to `end` (inclusive; an end past the object stops at its last byte) streamed
   * from the store without reading the rest, with the object's size; undefined if nothing is
   * stored under the key. `start` must lie inside the object.
   */
  getRange(key: string, start: number, end: number): Promise<ObjectRange | undefined>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /**
   * A URL a browser can PUT a new object to directly, for stores that accept uploads themselves
   * (S3). Absent on local disk, where this server receives the upload (server/storage/upload-url.ts).
   */
  presignUpload?(
    key: string,
    options: { contentType?: string; expiresInSeconds: number },
  ): Promise<string>;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9/_.-]*$/i;

export function createLocalObjectStore(dataDir: string): ObjectStore {
  const root = path.join(dataDir, "objects");
  const resolveKey = (key: string) => {
    if (!SAFE_KEY.test(key) || key.includes("..")) throw new Error(`Invalid object key ${key}`);
    return path.join(root, key);
  };
  return {
    async put(key, body) {
      const file = resolveKey(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      await fs.writeFile(temporary, body);
      await fs.rename(temporary, file);
    },
    async putIfAbsent(key, body) {
      const file = resolveKey(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.${randomUUID()}.tmp`;
      await fs.writeFile(temporary, body);
      try {
        // link() refuses an existing target, unlike rename(): the check and the write are one step.
        await fs.link(temporary, file);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
        throw error;
      } finally {
        await fs.rm(temporary, { force: true });
      }
    },
    async exists(key) {
      try {
        await fs.access(resolveKey(key));
        return true;
      } catch {
        return false;
      }
    },
    async delete(key) {
      await fs.rm(resolveKey(key), { force: true });
    },
    async get(key) {
      try {
        return await fs.readFile(resolveKey(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
    },
    async getRange(key, start, end) {
      let file: fs.FileHandle;
      try {
        file = await fs.open(resolveKey(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
      let size: number;
      try {
        ({ size } = await file.stat());
      } catch (error) {
        await file.close();
        throw error;
      }
      // The stream owns the handle from here and closes it at its end or when it is cancelled.
      const stream = file.createReadStream({ start, end: Math.min(end, size - 1) });
      return { body: Readable.toWeb(stream) as ReadableStream<Uint8Array>, size };
    },
  };
}
