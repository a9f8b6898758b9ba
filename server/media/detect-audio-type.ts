import { fileTypeFromBuffer } from "file-type";
import { MAGIC_BYTES_SAMPLE_SIZE } from "./process-image.ts";

/**
 * The recordings a poem may carry (decision 018), by the extension file-type reads from their
 * bytes, and the type they are served with: the one every browser's <audio> knows for each. An M4A
 * is recognised by its 'M4A ' brand; an MP4 of another brand may hold video and is refused.
 */
const SERVED_AUDIO_TYPES = new Map([
  ["mp3", "audio/mpeg"],
  ["m4a", "audio/mp4"],
  ["aac", "audio/aac"],
  ["ogg", "audio/ogg"],
  ["opus", "audio/ogg"],
  ["wav", "audio/wav"],
]);

/** The type to serve a recording with, read from its first bytes; undefined if not accepted. */
export async function detectAudioType(bytes: Uint8Array): Promise<string | undefined> {
  const detected = await fileTypeFromBuffer(bytes.subarray(0, MAGIC_BYTES_SAMPLE_SIZE));
  return detected && SERVED_AUDIO_TYPES.get(detected.ext);
}
