import fs from "node:fs/promises";
import path from "node:path";

/** Stored images on local disk under DATA_DIR/objects (S3-compatible storage is the other kind). */
export interface ObjectStore {
  /** Writes atomically: a reader never sees a half-written object. */
  put(key: string, body: Uint8Array): Promise<void>;
  get(key: string): Promise<Uint8Array | undefined>;
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
    async get(key) {
      try {
        return await fs.readFile(resolveKey(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
    },
  };
}
