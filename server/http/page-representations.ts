import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { acceptedEncodings, type Encoding } from "./compression.ts";

/**
 * What the page cache (server/http/page-cache.ts) makes of one render: its validators, the Vary
 * every copy carries, the 304 a client's If-None-Match earns, and a body any reader may share.
 */

/** The ETag of each coding of a page (decision 029). */
export type Validators = Record<Encoding, string>;

/**
 * Each coding of a page is a representation of its own, with bytes of its own, so each has its
 * own strong validator (RFC 9110 §8.8.3): the identity body's hash, the coding's name after it.
 * A copy gzipped for one response (decision 012) is not the cache's gzip bytes: its is weak.
 */
export function validatorsOf(hash: string, isKept: boolean): Validators {
  return {
    identity: `"${hash}"`,
    gzip: `${isKept ? "" : "W/"}"${hash}-gzip"`,
    br: `"${hash}-br"`,
  };
}

const CODINGS: Encoding[] = ["identity", "gzip", "br"];
/** The page's own Vary (a poem's page varies with Accept) and the names every copy varies by. */
export function withVary(own: string | undefined, names: string[]): string {
  const added = new Set(names.map((name) => name.toLowerCase()));
  const kept = (own ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name && !added.has(name.toLowerCase()));
  return [...new Map(kept.map((name) => [name.toLowerCase(), name])).values(), ...names].join(", ");
}

/**
 * The validator to answer 304 with, when If-None-Match names the page in a coding this request
 * accepts (weak comparison: `W/` aside, RFC 9110 §13.1.2): the one the client holds, which it
 * keeps even when it would now be sent another coding. `*` names whichever it would be sent.
 * Anything else, a garbled header too, names nothing: the full answer.
 */
export function notModifiedValidator(
  request: IncomingMessage,
  validators: Validators,
  selected: Encoding,
): string | undefined {
  const header = request.headers["if-none-match"];
  if (!header) return undefined;
  let accepted: Set<string> | undefined;
  for (const listed of header.split(",")) {
    const held = listed.trim();
    if (held === "*") return validators[selected];
    const tag = held.replace(/^W\//, "");
    for (const coding of CODINGS) {
      if (tag !== validators[coding].replace(/^W\//, "")) continue;
      accepted ??= acceptedEncodings(request.headers["accept-encoding"]);
      if (coding === "identity" || accepted.has(coding) || accepted.has("*")) return held;
    }
  }
  return undefined;
}

/**
 * A render made fit for many readers, since a nonce must never be reused: the nonce leaves the
 * body, and the policy lets exactly its inline scripts run by their SHA-256 hashes instead.
 * Without it, a page's bytes (and so its ETag) change only when its content does: a reader's
 * If-None-Match still matches after a content change elsewhere, or on another instance.
 */
export function withoutNonce(policy: string, body: Buffer): { policy: string; body: Buffer } {
  const nonce = /'nonce-([^']*)'/.exec(policy)?.[1];
  if (!nonce) return { policy, body };
  const html = body.toString("utf8").replaceAll(` nonce="${nonce}"`, "");
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    hashes.add(
      `'sha256-${createHash("sha256")
        .update(match[1] ?? "")
        .digest("base64")}'`,
    );
  }
  return {
    policy: policy.replace(`'nonce-${nonce}'`, [...hashes].join(" ") || "'none'"),
    body: Buffer.from(html),
  };
}
