import dns from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { isPublicAddress } from "../media/public-address.ts";

/** Every address a host name resolves to. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

export interface PublicFetchOptions {
  resolveHost?: ResolveHost;
  /**
   * Which resolved addresses may be contacted; the public internet only unless a test widens it
   * to reach its own loopback server.
   */
  isAllowedAddress?: (address: string) => boolean;
  /** The whole fetch's deadline; each kind of file has its own default. */
  timeoutMs?: number;
}

/** What is fetched: how much of it, at most how large, and which bytes are accepted. */
export interface PublicFileKind {
  /** The Accept header sent. */
  accept: string;
  /** Only this many first bytes (enough to tell the type) are read; absent, the whole file. */
  firstBytesOnly?: number;
  /** Anything larger is refused, whether declared or received. */
  maxBytes: number;
  defaultTimeoutMs: number;
  /** The file's type from its bytes; undefined refuses it. */
  detectType(bytes: Uint8Array): Promise<string | undefined>;
  /** Refusals in the kind's own words: 'The image is too large'. */
  tooLarge: string;
  wrongType: string;
  notLoaded: string;
}

const MAX_REDIRECTS = 3;

/** Why a URL was refused, in words an admin can act on. */
export class RemoteFileRefusedError extends Error {
  override name = "RemoteFileRefusedError";
}

const resolveWithDns: ResolveHost = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

function parseHttpUrl(raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new RemoteFileRefusedError("Not a valid URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new RemoteFileRefusedError("Only http and https URLs are allowed");
  }
  if (url.username || url.password) {
    throw new RemoteFileRefusedError("URLs with credentials are not allowed");
  }
  return url;
}

/**
 * Fetches a file from a URL someone gave this server (a cover URL the admin types, an imported
 * poem's cover or reading) and says which type its bytes are. The server fetches it, so it must
 * not become a door into the server's own network: every address the host resolves to must be
 * public, the connection goes to the address that was checked (a second DNS answer cannot swap in
 * 127.0.0.1), each redirect is checked the same way, and the whole fetch has one deadline.
 */
export async function fetchPublicFile(
  rawUrl: string,
  kind: PublicFileKind,
  options: PublicFetchOptions = {},
): Promise<{ contentType: string; bytes: Uint8Array }> {
  const resolveHost = options.resolveHost ?? resolveWithDns;
  const isAllowedAddress = options.isAllowedAddress ?? isPublicAddress;
  const timeoutMs = options.timeoutMs ?? kind.defaultTimeoutMs;
  const signal = AbortSignal.timeout(timeoutMs);

  let url = parseHttpUrl(rawUrl);
  try {
    for (let redirects = 0; ; redirects++) {
      const address = await resolveAllowedAddress(url, resolveHost, isAllowedAddress, signal);
      const response = await requestPinned(url, address, kind.accept, signal);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location) {
        response.destroy();
        if (redirects === MAX_REDIRECTS) {
          throw new RemoteFileRefusedError(`More than ${MAX_REDIRECTS} redirects`);
        }
        url = parseHttpUrl(location, url);
        continue;
      }
      if (status !== 200) {
        response.destroy();
        throw new RemoteFileRefusedError(`The server answered ${status}`);
      }
      if (Number(response.headers["content-length"]) > kind.maxBytes) {
        response.destroy();
        throw new RemoteFileRefusedError(kind.tooLarge);
      }
      const bytes =
        kind.firstBytesOnly === undefined
          ? await readWhole(response, kind.maxBytes, kind.tooLarge)
          : await readFirstBytes(response, kind.firstBytesOnly);
      const contentType = await kind.detectType(bytes);
      if (!contentType) throw new RemoteFileRefusedError(kind.wrongType);
      return { contentType, bytes };
    }
  } catch (error) {
    if (error instanceof RemoteFileRefusedError) throw error;
    if (signal.aborted) {
      throw new RemoteFileRefusedError(`No answer within ${timeoutMs / 1000} s`, { cause: error });
    }
    throw new RemoteFileRefusedError(kind.notLoaded, { cause: error });
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
      throw new RemoteFileRefusedError(`${hostname} could not be resolved`, { cause: error });
    }
  }
  const [first] = addresses;
  if (!first) throw new RemoteFileRefusedError(`${hostname} could not be resolved`);
  // Every address, not just the first: a client library may fall back to any of them.
  if (!addresses.every(isAllowedAddress)) {
    throw new RemoteFileRefusedError(`${hostname} is not a public internet address`);
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
function requestPinned(url: URL, address: string, accept: string, signal: AbortSignal) {
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
        headers: { accept, "user-agent": "EmberVerse-Fetch" },
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
async function readWhole(response: http.IncomingMessage, limit: number, tooLarge: string) {
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of response) {
    received += (chunk as Buffer).length;
    if (received > limit) {
      response.destroy();
      throw new RemoteFileRefusedError(tooLarge);
    }
    chunks.push(chunk as Buffer);
  }
  return new Uint8Array(Buffer.concat(chunks));
}
