import { isCoverAllowedOnPages } from "../../common/cover-image.ts";
import type { Config } from "../config.ts";
import type { StoredPoem } from "./identity.ts";

/** A cover fetched into our storage: its stored path and size (server/media/images.ts). */
export type CoverFetcher = (
  url: string,
) => Promise<{ objectPath: string; width: number; height: number }>;

/** A reading fetched into our storage: its stored path (server/media/audio.ts). */
export type ReadingFetcher = (url: string) => Promise<{ objectPath: string }>;

/** A reading still on the old site, to be copied when the job copies files. */
export const hasReadingToCopy = (poem: StoredPoem) => /^https?:\/\//i.test(poem.audioUrl ?? "");

/** What the job's next batch of poems writes, resolved before its transaction. */
export interface PreparedPoem {
  poem: StoredPoem;
  cover: { url: string; width: number | null; height: number | null } | null;
  /** Its reading: copied here, or the old site's https link, or none. */
  audioUrl: string | null;
  notes: string[];
}

/**
 * An imported poem's files, made ready outside the batch's transaction: its cover and reading
 * copied into our storage when the job copies files, else kept as links where they can be.
 */
export function createFilePreparer(deps: {
  config: Config;
  /** Fetches a cover into our storage; absent, covers are kept as references. */
  fetchCover?: CoverFetcher;
  /** Fetches a reading into our storage; absent, readings are kept as links. */
  fetchReading?: ReadingFetcher;
}) {
  const { config } = deps;

  /** A poem's cover and reading, fetched (or checked as links) outside the batch's transaction. */
  async function prepareFiles(poem: StoredPoem, fetchFiles: boolean): Promise<PreparedPoem> {
    const cover = await prepareCover(poem, fetchFiles);
    const reading = await prepareReading(poem, fetchFiles);
    return {
      poem,
      cover: cover.cover,
      audioUrl: reading.audioUrl,
      notes: [...cover.notes, ...reading.notes],
    };
  }

  /**
   * A reading on the old site is copied here when the job copies files; one that is not (or
   * cannot be) is kept as its https link, which plays from there while the old site serves it.
   */
  async function prepareReading(
    poem: StoredPoem,
    fetchFiles: boolean,
  ): Promise<{ audioUrl: string | null; notes: string[] }> {
    const url = poem.audioUrl ?? null;
    if (url === null || !hasReadingToCopy(poem)) return { audioUrl: url, notes: [] };
    const isHttps = url.toLowerCase().startsWith("https://");
    const reading = `“${poem.title}”: its reading ${url}`;
    if (fetchFiles && deps.fetchReading) {
      try {
        return { audioUrl: (await deps.fetchReading(url)).objectPath, notes: [] };
      } catch (error) {
        const failed = `${reading} could not be copied (${(error as Error).message})`;
        return isHttps
          ? { audioUrl: url, notes: [`${failed}; it stays a link to the old site`] }
          : {
              audioUrl: null,
              notes: [
                `${failed}, and a link that is not https cannot play here; imported without it`,
              ],
            };
      }
    }
    return isHttps
      ? { audioUrl: url, notes: [] }
      : {
          audioUrl: null,
          notes: [`${reading} is not https, so it cannot play here as a link; imported without it`],
        };
  }

  /** Covers are fetched (or checked as references) outside the batch's transaction. */
  async function prepareCover(
    poem: StoredPoem,
    fetchCovers: boolean,
  ): Promise<Omit<PreparedPoem, "poem" | "audioUrl">> {
    if (!poem.coverUrl) return { cover: null, notes: [] };
    if (fetchCovers && deps.fetchCover) {
      try {
        const fetched = await deps.fetchCover(poem.coverUrl);
        return {
          cover: { url: fetched.objectPath, width: fetched.width, height: fetched.height },
          notes: [],
        };
      } catch (error) {
        return {
          cover: null,
          notes: [
            `“${poem.title}”: its cover ${poem.coverUrl} could not be fetched (${(error as Error).message}); imported without it`,
          ],
        };
      }
    }
    if (isCoverAllowedOnPages(poem.coverUrl, config.publicUrl.origin)) {
      return { cover: { url: poem.coverUrl, width: null, height: null }, notes: [] };
    }
    return {
      cover: null,
      notes: [
        `“${poem.title}”: its cover ${poem.coverUrl} is not https, so it cannot be shown as a reference; imported without it`,
      ],
    };
  }

  return { prepareFiles, copiesReadings: deps.fetchReading !== undefined };
}
