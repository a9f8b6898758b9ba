import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { isPublicAddress } from "../media/public-address.ts";
import type { FediverseDeliveryOptions } from "./delivery.ts";

/**
 * The POSTs of the delivery queue (server/fediverse/delivery.ts): which inbox addresses may be
 * sent to, and the kept-alive connections that send them.
 */

/**
 * Refuses, at connection time, any inbox whose host resolves to a private, loopback or otherwise
 * non-public address (the same rule as image URLs, server/media/public-address.ts): the socket
 * goes to the address that was checked, so a second DNS answer cannot swap one in.
 */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, "", 4);
      const list = addresses as dns.LookupAddress[];
      if (!allowPrivate && !list.every((entry) => isPublicAddress(entry.address))) {
        return callback(
          Object.assign(new Error(`${hostname} is not a public internet address`), {
            code: "ENOTPUBLIC",
          }),
          "",
          4,
        );
      }
      if (options.all) return callback(null, list);
      const [first] = list;
      if (!first) return callback(new Error(`${hostname} could not be resolved`), "", 4);
      callback(null, first.address, first.family);
    });
  };
}

export const inboxUrlRefusal = (url: URL, allowPrivate: boolean): string | null => {
  if (url.protocol !== "https:" && url.protocol !== "http:") return "not an http(s) inbox";
  if (url.username || url.password) return "an inbox URL with credentials";
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  // A literal address skips the lookup, so it is judged here.
  if (!allowPrivate && isIP(host) !== 0 && !isPublicAddress(host)) {
    return `${host} is not a public internet address`;
  }
  return null;
};

export interface PostAnswer {
  status: number;
  retryAfter?: string;
}

/** One kept-alive agent per scheme, at most `concurrency` sockets each, on the guarded lookup. */
export function createInboxPoster(
  options: Pick<FediverseDeliveryOptions, "concurrency" | "requestTimeoutMs">,
  allowPrivateAddresses: boolean,
) {
  const lookup = guardedLookup(allowPrivateAddresses);
  const agents = {
    "http:": new http.Agent({ keepAlive: true, maxSockets: options.concurrency, lookup }),
    "https:": new https.Agent({ keepAlive: true, maxSockets: options.concurrency, lookup }),
  };

  function post(url: URL, headers: Record<string, string>, body: string): Promise<PostAnswer> {
    const transport = url.protocol === "https:" ? https : http;
    return new Promise((resolve, reject) => {
      const request = transport.request(
        url,
        {
          method: "POST",
          headers,
          agent: agents[url.protocol as "http:" | "https:"],
          timeout: options.requestTimeoutMs,
        },
        (response) => {
          // The answer's body says nothing the delivery needs; read it so the socket is reused.
          response.resume();
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              retryAfter: response.headers["retry-after"],
            }),
          );
          response.on("error", reject);
        },
      );
      request.on("timeout", () =>
        request.destroy(new Error(`no answer within ${options.requestTimeoutMs / 1000} s`)),
      );
      request.on("error", reject);
      request.end(body);
    });
  }

  return {
    post,
    /** Closes the kept-alive sockets, once the queue has stopped. */
    close(): void {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}

export type InboxPoster = ReturnType<typeof createInboxPoster>;
