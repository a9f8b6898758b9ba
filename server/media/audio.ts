import { randomUUID } from "node:crypto";
import { UPLOADS, uploadedObjectPath } from "../../common/uploads.ts";
import type { Config } from "../config.ts";
import { unsupportedMediaType } from "../core/errors.ts";
import type { ByteRange } from "../http/byte-range.ts";
import type { PublicFetchOptions } from "../http/public-fetch.ts";
import type { ReadingFetcher } from "../import/files.ts";
import type { ObjectStore } from "../storage/local.ts";
import { UPLOAD_ID } from "../storage/upload-url.ts";
import { detectAudioType } from "./detect-audio-type.ts";
import { fetchReading } from "./fetch-reading.ts";
import { MAGIC_BYTES_SAMPLE_SIZE } from "./process-image.ts";
import { createUploadFlow } from "./uploads.ts";

const audioKey = (id: string) => `audio/${id}`;

export interface StoredAudio {
  contentType: string;
}

/** A stored recording as the /objects/audio route serves it: its type from its bytes, its size. */
export interface AudioObject {
  contentType: string;
  size: number;
  /** Streams bytes `start` to `end` inclusive, inside the recording, from the store. */
  readRange(range: ByteRange): Promise<ReadableStream<Uint8Array>>;
}

/**
 * An imported poem's reading (a Substack podcast episode's audio) copied into our storage
 * (docs/product/import.md): fetched under the rule covers are fetched by, then stored as an
 * uploaded reading is, checked by its bytes.
 */
export function createReadingFetcher(
  objectStore: ObjectStore,
  urlCheck?: PublicFetchOptions,
): ReadingFetcher {
  return async (url) => {
    const { bytes } = await fetchReading(url, urlCheck);
    const id = randomUUID();
    if (!(await objectStore.putIfAbsent(audioKey(id), bytes))) {
      throw new Error("the reading's new id was taken");
    }
    return { objectPath: uploadedObjectPath("audio", id) };
  };
}

/**
 * The poet's readings (decision 018): uploads, checked by their bytes and stored as they are, and
 * their reading back a range at a time, which is how browsers play and seek.
 */
export function createAudioService(deps: {
  config: Config;
  objectStore: ObjectStore;
  secret: string;
}) {
  const { objectStore } = deps;

  /** Stores a recording of an accepted type; undefined if the id is already taken. */
  async function storeAudio(id: string, bytes: Uint8Array): Promise<StoredAudio | undefined> {
    const contentType = await detectAudioType(bytes);
    if (!contentType) throw unsupportedMediaType(UPLOADS.audio.wrongTypeMessage);
    if (!(await objectStore.putIfAbsent(audioKey(id), bytes))) return undefined;
    return { contentType };
  }

  const uploads = createUploadFlow(deps, { kind: "audio", store: storeAudio });

  /** The recording's first bytes, enough to tell its type, and its size. */
  async function readHead(id: string) {
    const head = await objectStore.getRange(audioKey(id), 0, MAGIC_BYTES_SAMPLE_SIZE - 1);
    if (!head) return undefined;
    return { bytes: new Uint8Array(await new Response(head.body).arrayBuffer()), size: head.size };
  }

  return {
    uploads,

    /**
     * The recording stored as /objects/audio/{id}, or undefined. A direct-to-bucket upload is
     * checked and stored the first time it is asked for. Only its first bytes are read here, so
     * a request for a few bytes of a 25 MB file never reads the whole file.
     */
    async getAudio(id: string): Promise<AudioObject | undefined> {
      if (!UPLOAD_ID.test(id)) return undefined;
      let head = await readHead(id);
      if (!head) {
        await uploads.storePendingUpload(id);
        head = await readHead(id);
      }
      const contentType = head && (await detectAudioType(head.bytes));
      if (!head || !contentType) return undefined;
      return {
        contentType,
        size: head.size,
        async readRange({ start, end }) {
          const range = await objectStore.getRange(audioKey(id), start, end);
          if (!range) throw new Error(`Stored audio ${id} went missing while it was read`);
          return range.body;
        },
      };
    },
  };
}

export type AudioService = ReturnType<typeof createAudioService>;
