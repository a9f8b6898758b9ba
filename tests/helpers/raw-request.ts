import http from "node:http";

/** An answer as it came over the wire: its status, headers and bytes, none of them decoded. */
export interface RawAnswer {
  status?: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A request through node:http rather than fetch, which decodes gzip and br bodies: a test of
 * Content-Length and Content-Encoding needs the bytes that were sent.
 */
export function rawRequest(
  url: string,
  method: string,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      );
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end();
  });
}

/** The headers a HEAD must answer as its GET does (RFC 9110 §9.3.2). */
export const HEADERS_OF_A_REPRESENTATION = [
  "content-length",
  "content-encoding",
  "content-type",
  "last-modified",
  "etag",
  "vary",
  "cache-control",
] as const;
