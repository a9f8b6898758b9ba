import { fileTooLargeMessage } from "../../common/uploads.ts";
import { tooLarge } from "../core/errors.ts";

/**
 * Reads a request body whole, refusing (413) as soon as it passes maxBytes. The declared
 * Content-Length is checked first to refuse early, but the count of bytes actually received is
 * what decides: a chunked body has no length and a declared one can be wrong.
 */
export async function readLimitedBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const message = fileTooLargeMessage(maxBytes);
  const declared = Number(request.headers.get("content-length"));
  if (declared > maxBytes) throw tooLarge(message);
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel();
      throw tooLarge(message);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
