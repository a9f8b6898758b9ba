import { UPLOADS } from "../../common/uploads.ts";
import { fetchPublicFile, type PublicFetchOptions } from "../http/public-fetch.ts";
import { detectAudioType } from "./detect-audio-type.ts";

const MAX_MB = UPLOADS.audio.maxBytes / 1024 / 1024;

/**
 * Fetches a whole recording (an imported podcast episode's audio) under the public-fetch rule
 * (server/http/public-fetch.ts): no larger than an uploaded reading may be, of a type a reading
 * may have (decision 018). A 25 MB file on a slow host takes a while, so the deadline is 30 s,
 * half an import batch's lease.
 */
export function fetchReading(
  rawUrl: string,
  options: PublicFetchOptions = {},
): Promise<{ contentType: string; bytes: Uint8Array }> {
  return fetchPublicFile(
    rawUrl,
    {
      accept: "audio/*",
      maxBytes: UPLOADS.audio.maxBytes,
      defaultTimeoutMs: 30_000,
      detectType: detectAudioType,
      tooLarge: `The recording is larger than ${MAX_MB} MB, the most a reading here may be`,
      wrongType: "Not an MP3, M4A, AAC, Ogg or WAV recording",
      notLoaded: "The recording could not be loaded",
    },
    options,
  );
}
