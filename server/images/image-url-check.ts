import dns from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { detectAcceptedImageType, MAGIC_BYTES_SAMPLE_SIZE } from "./process-image.ts";
import { isPublicAddress } from "./public-address.ts";

/** Every address a host name resolves to. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

export interface ImageUrlCheckOptions {
  resolveHost?: ResolveHost;
  /**
   * Which resolved addresses may be contacted; the public internet only unless a test widens it
   * to reach its own loopback server.
   */
  isAllowedAddress?: (address: string) => boolean;
  timeoutMs?: number;
}

const MAX_REDIRECTS = 3;
const DEFAULT_TIMEOUT_MS = 5000;
/** A cover larger than this is not worth showing, whatever the bytes are. */
const MAX_DECLARED_BYTES = 20 * 1024 * 1024;

/** Why a URL was refused, in words an admin can act on. */
export class ImageUrlRefusedError extends Error {
  override name = "ImageUrlRefusedError";
}

const resolveWithDns: ResolveHost = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

function parseHttpUrl(raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new ImageUrlRefusedError("Not a valid URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ImageUrlRefusedError("Only http and https URLs are allowed");
  }
  if (url.username || url.password) {
    throw new ImageUrlRefusedError("URLs with credentials are not allowed");
  }
  return url;
}

/**
 * Fetches the first bytes of a URL and says which image type they are. The URL comes from an
 * admin, but this server fetches it, so it must not become a door into the server's own network:
 * every address the host resolves to must be public, the connection goes to the address that was
 * checked (a second DNS answer cannot swap in 127.0.0.1), each redirect is checked the same way,
 * and the whole check has one deadline.
 */
export async function checkImageUrl(
  rawUrl: string,
  options: ImageUrlCheckOptions = {},
): Promise<{ contentType: string }> {
  const { contentType } = await fetchImageBytes(rawUrl, options, "head");
  return { contentType };
}

/**
 * Fetches a whole image under the same rule (an imported poem's cover, copied into our storage):
 * at most 20 MB, a JPEG, PNG or WebP.
 */
export function fetchImage(
  rawUrl: string,
  options: ImageUrlCheckOptions = {},
): Promise<{ contentType: string; bytes: Uint8Array }> {
  return fetchImageBytes(rawUrl, options, "whole");
}

async function fetchImageBytes(
  rawUrl: string,
  options: ImageUrlCheckOptions,
  extent: "head" | "whole",
): Promise<{ contentType: string; bytes: Uint8Array }> {
  const resolveHost = options.resolveHost ?? resolveWithDns;
  const isAllowedAddress = options.isAllowedAddress ?? isPublicAddress;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);

  let url = parseHttpUrl(rawUrl);
  try {
    for (let redirects = 0; ; redirects++) {
      const address = await resolveAllowedAddress(url, resolveHost, isAllowedAddress, signal);
      const response = await requestPinned(url, address, signal);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location) {
        response.destroy();
        if (redirects === MAX_REDIRECTS) {
          throw new ImageUrlRefusedError(`More than ${MAX_REDIRECTS} redirects`);
        }
        url = parseHttpUrl(location, url);
        continue;
      }
      if (status !== 200) {
        response.destroy();
        throw new ImageUrlRefusedError(`The server answered ${status}`);
      }
      if (Number(response.headers["content-length"]) > MAX_DECLARED_BYTES) {
        response.destroy();
        throw new ImageUrlRefusedError("The image is too large");
      }
      const bytes =
        extent === "head"
          ? await readFirstBytes(response, MAGIC_BYTES_SAMPLE_SIZE)
          : await readWhole(response, MAX_DECLARED_BYTES);
      const contentType = await detectAcceptedImageType(bytes);
      if (!contentType) throw new ImageUrlRefusedError("Not a JPEG, PNG or WebP image");
      return { contentType, bytes };
    }
  } catch (error) {
    if (error instanceof ImageUrlRefusedError) throw error;
    if (signal.aborted) {
      throw new ImageUrlRefusedError(`No answer within ${timeoutMs / 1000} s`, { cause: error });
    }
    throw new ImageUrlRefusedError("The image could not be loaded", { cause: error });
  }
}

async function resolveAllowedAddress(
  url: URL,
  resolveHost: ResolveHost,
  isAllowedAddress: (address: string) => boolean,
  signal: AbortSignal,
): Promise<string> {
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: string[];
  if (ipaddr.isValid(hostname)) {
    addresses = [hostname];
  } else {
    try {
      addresses = await untilAborted(resolveHost(hostname), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new ImageUrlRefusedError(`${hostname} could not be resolved`, { cause: error });
    }
  }
  const [first] = addresses;
  if (!first) throw new ImageUrlRefusedError(`${hostname} could not be resolved`);
  // Every address, not just the first: a client library may fall back to any of them.
  if (!addresses.every(isAllowedAddress)) {
    throw new ImageUrlRefusedError(`${hostname} is not a public internet address`);
  }
  return first;
}

/** The resolver takes no signal, so the deadline races it. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  const aborted = new Promise<never>((_, reject) =>
    signal.addEventListener("abort", () => reject(signal.reason), { once: true }),
  );
  return Promise.race([promise, aborted]);
}

/**
 * A GET to the URL's host name (so Host and TLS SNI and certificate checks use the name) whose
 * socket goes to the one address already checked.
 */
function requestPinned(url: URL, address: string, signal: AbortSignal) {
  const family = ipaddr.parse(address).kind() === "ipv6" ? 6 : 4;
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const transport = url.protocol === "https:" ? https : http;
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = transport.request(
      url,
      {
        method: "GET",
        headers: { accept: "image/*", "user-agent": "EmberVerse-ImageCheck" },
        lookup,
        agent: false,
        signal,
      },
      resolve,
    );
    request.on("error", reject);
    request.end();
  });
}

/** Reads up to `limit` bytes and then drops the connection: the rest is never downloaded. */
async function readFirstBytes(response: http.IncomingMessage, limit: number) {
  const chunks: Buffer[] = [];
  let received = 0;
  try {
    for await (const chunk of response) {
      chunks.push(chunk as Buffer);
      received += (chunk as Buffer).length;
      if (received >= limit) break;
    }
  } finally {
    response.destroy();
  }
  return new Uint8Array(Buffer.concat(chunks).subarray(0, limit));
}

/** Reads the whole answer, refusing one that passes `limit` bytes whatever it declared. */
async function readWhole(response: http.IncomingMessage, limit: number) {
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of response) {
    received += (chunk as Buffer).length;
    if (received > limit) {
      response.destroy();
      throw new ImageUrlRefusedError("The image is too large");
    }
    chunks.push(chunk as Buffer);
  }
  return new Uint8Array(Buffer.concat(chunks));
}
