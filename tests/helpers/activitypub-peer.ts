import { createHash, createSign, generateKeyPairSync, type KeyObject } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  parseRequestSignature,
  verifyDigestHeader,
  verifyDraftSignature,
} from "@misskey-dev/node-http-message-signatures";

/**
 * An independent ActivityPub server for tests, NOT built on Fedify: a node:http server on
 * `localhost` (the site under test runs on 127.0.0.1, another host) with its own actors, their
 * WebFinger, actor documents and inboxes. It signs what it sends as Mastodon does, draft-cavage
 * HTTP Signatures over `(request-target) host date digest` made with node:crypto, and verifies
 * what it receives with another library (@misskey-dev/node-http-message-signatures), fetching
 * the sender's key from the site over HTTP.
 *
 * Any name is an actor (`/users/{name}`), each with its own inbox; one shared inbox (`/inbox`)
 * serves them all, or none when `sharedInbox: false`. Inbox answers are configurable per inbox:
 * a list of statuses to give, in order, before answering 202 (`answerNext`), or a fixed one.
 */

export interface ReceivedActivity {
  /** The inbox's path: `/inbox` or `/users/{name}/inbox`. */
  inbox: string;
  activity: Record<string, unknown>;
  /** Whether the request's draft-cavage signature and digest checked out against the sender's key. */
  verified: boolean;
  keyId: string | null;
  /** What the peer answered. */
  status: number;
  receivedAt: number;
}

export interface PeerOptions {
  /** Whether actors name a shared inbox (default true). */
  sharedInbox?: boolean;
  /** Answers from a given time on: e.g. a slow server, in ms before each inbox answer. */
  inboxDelayMs?: number;
}

export interface SendOptions {
  /** Which actor sends (default "alice"). */
  as?: string;
  /** "none": no signature; "wrong-key": signed with a key that is not the actor's; "tampered": the body changed after signing. */
  signature?: "valid" | "none" | "wrong-key" | "tampered";
  /** Sign as this actor but claim another in the activity (the key is not the actor's). */
  keyOf?: string;
}

type Json = Record<string, unknown>;

const AS_CONTEXT = "https://www.w3.org/ns/activitystreams";
const SECURITY_CONTEXT = "https://w3id.org/security/v1";

function rsaKeyPair() {
  return generateKeyPairSync("rsa", { modulusLength: 2048 });
}

export async function startActivityPubPeer(options: PeerOptions = {}) {
  const keys = rsaKeyPair();
  const strangerKeys = rsaKeyPair();
  const received: ReceivedActivity[] = [];
  const answers = new Map<string, number[]>();
  const fixedAnswers = new Map<string, number>();
  const waiters = new Set<() => void>();
  const publicKeyCache = new Map<string, string>();
  const hasSharedInbox = options.sharedInbox ?? true;
  const displayNames = new Map<string, string>();

  const server = http.createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { "Content-Type": "text/plain" });
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "localhost", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://localhost:${port}`;

  const actorUrl = (name: string) => `${origin}/users/${name}`;
  const keyIdOf = (name: string) => `${actorUrl(name)}#main-key`;
  const inboxOf = (name: string) => `${actorUrl(name)}/inbox`;
  const sharedInboxUrl = `${origin}/inbox`;
  const publicPem = keys.publicKey.export({ type: "spki", format: "pem" }).toString();

  function actorDocument(name: string): Json {
    return {
      "@context": [AS_CONTEXT, SECURITY_CONTEXT],
      id: actorUrl(name),
      type: "Person",
      preferredUsername: name,
      name: displayNames.get(name) ?? `${name[0]?.toUpperCase() ?? ""}${name.slice(1)} of the Peer`,
      url: `${origin}/@${name}`,
      inbox: inboxOf(name),
      outbox: `${actorUrl(name)}/outbox`,
      followers: `${actorUrl(name)}/followers`,
      icon: { type: "Image", mediaType: "image/png", url: `${origin}/avatars/${name}.png` },
      ...(hasSharedInbox ? { endpoints: { sharedInbox: sharedInboxUrl } } : {}),
      publicKey: { id: keyIdOf(name), owner: actorUrl(name), publicKeyPem: publicPem },
    };
  }

  function notify() {
    for (const waiter of waiters) waiter();
  }

  async function readBody(request: http.IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /** The public key PEM of a keyId, fetched from its owner's actor document (the site's). */
  async function publicKeyOf(keyId: string): Promise<string | null> {
    const cached = publicKeyCache.get(keyId);
    if (cached) return cached;
    const response = await fetch(keyId, { headers: { Accept: "application/activity+json" } });
    if (!response.ok) return null;
    const document = (await response.json()) as Json;
    const publicKey = (document.publicKey ?? document) as Json;
    const keysInDocument = Array.isArray(publicKey) ? (publicKey as Json[]) : [publicKey];
    const match = keysInDocument.find((key) => key.id === keyId) ?? keysInDocument[0];
    const pem = typeof match?.publicKeyPem === "string" ? match.publicKeyPem : null;
    if (pem) publicKeyCache.set(keyId, pem);
    return pem;
  }

  async function verify(request: http.IncomingMessage, body: Buffer) {
    try {
      const digestOk = await verifyDigestHeader(request, new Uint8Array(body), true);
      if (digestOk !== true) return { verified: false, keyId: null };
      const parsed = parseRequestSignature(request);
      if (parsed.version !== "draft") return { verified: false, keyId: null };
      const keyId = parsed.value.keyId;
      const pem = await publicKeyOf(keyId);
      if (!pem) return { verified: false, keyId };
      return { verified: await verifyDraftSignature(parsed.value, pem), keyId };
    } catch {
      return { verified: false, keyId: null };
    }
  }

  function nextAnswer(inbox: string): number {
    const queued = answers.get(inbox) ?? answers.get("*");
    if (queued && queued.length > 0) return queued.shift() ?? 202;
    return fixedAnswers.get(inbox) ?? fixedAnswers.get("*") ?? 202;
  }

  async function handle(request: http.IncomingMessage, response: http.ServerResponse) {
    const url = new URL(request.url ?? "/", origin);
    const json = (status: number, document: unknown, type = "application/activity+json") => {
      response.writeHead(status, { "Content-Type": type });
      response.end(JSON.stringify(document));
    };
    if (request.method === "GET" && url.pathname === "/.well-known/webfinger") {
      const resource = url.searchParams.get("resource") ?? "";
      const name = /^acct:([^@]+)@/.exec(resource)?.[1];
      if (!name) return json(404, { error: "not found" }, "application/jrd+json");
      return json(
        200,
        {
          subject: `acct:${name}@localhost:${port}`,
          links: [{ rel: "self", type: "application/activity+json", href: actorUrl(name) }],
        },
        "application/jrd+json",
      );
    }
    const actorPath = /^\/users\/([a-z0-9_]+)$/.exec(url.pathname);
    if (request.method === "GET" && actorPath?.[1]) return json(200, actorDocument(actorPath[1]));
    const notePath = /^\/users\/([a-z0-9_]+)\/(statuses|activities)\/([A-Za-z0-9_-]+)$/.exec(
      url.pathname,
    );
    if (request.method === "GET" && notePath) {
      const stored = objects.get(`${origin}${url.pathname}`);
      return stored ? json(200, stored) : json(404, { error: "not found" });
    }
    const isInbox = url.pathname === "/inbox" || /^\/users\/[a-z0-9_]+\/inbox$/.test(url.pathname);
    if (request.method === "POST" && isInbox) {
      const body = await readBody(request);
      const { verified, keyId } = await verify(request, body);
      let activity: Json = {};
      try {
        activity = JSON.parse(body.toString("utf8")) as Json;
      } catch {
        activity = {};
      }
      if (options.inboxDelayMs) await new Promise((r) => setTimeout(r, options.inboxDelayMs));
      const status = verified ? nextAnswer(url.pathname) : 401;
      received.push({
        inbox: url.pathname,
        activity,
        verified,
        keyId,
        status,
        receivedAt: Date.now(),
      });
      notify();
      response.writeHead(status);
      return response.end();
    }
    return json(404, { error: "not found" });
  }

  /** Objects the peer serves at their ids (notes and activities it sent), for dereferencing. */
  const objects = new Map<string, Json>();
  let sequence = 0;

  function signedHeaders(
    target: URL,
    body: string,
    keyId: string,
    privateKey: KeyObject,
  ): Record<string, string> {
    const date = new Date().toUTCString();
    const digest = `SHA-256=${createHash("sha256").update(body).digest("base64")}`;
    const signingString = [
      `(request-target): post ${target.pathname}${target.search}`,
      `host: ${target.host}`,
      `date: ${date}`,
      `digest: ${digest}`,
    ].join("\n");
    const signature = createSign("RSA-SHA256").update(signingString).sign(privateKey, "base64");
    return {
      Host: target.host,
      Date: date,
      Digest: digest,
      Signature: `keyId="${keyId}",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="${signature}"`,
    };
  }

  return {
    origin,
    port,
    /** `localhost:{port}`: the server part of the peer's handles. */
    host: `localhost:${port}`,
    actorUrl,
    keyIdOf,
    inboxOf,
    sharedInboxUrl,
    received,

    /** A fresh id on the peer for an activity or object of `name`'s. */
    newId(name: string, kind: "statuses" | "activities" = "activities"): string {
      sequence += 1;
      return `${actorUrl(name)}/${kind}/${Date.now().toString(36)}${sequence}`;
    },

    /** The actor document of `name` as it is now, after a rename (for an Update of it). */
    rename(name: string, displayName: string): Json {
      displayNames.set(name, displayName);
      return actorDocument(name);
    },

    /** Serves `object` at its id from now on, as a real server serves what it published. */
    publish(object: Json) {
      if (typeof object.id === "string") objects.set(object.id, object);
    },

    /** The next answers of an inbox path (`/inbox`, `/users/x/inbox`, or `*` for any). */
    answerNext(inbox: string, statuses: number[]) {
      answers.set(inbox, [...statuses]);
    },
    /** A fixed answer of an inbox path (or `*`), after the queued ones. */
    answerAlways(inbox: string, status: number) {
      fixedAnswers.set(inbox, status);
    },

    /** POSTs an activity to `inboxUrl`, signed (or not, or forged) as `options.as`. */
    async send(inboxUrl: string, activity: Json, options: SendOptions = {}): Promise<Response> {
      const { headers, body } = this.signedPost(inboxUrl, activity, options);
      return fetch(inboxUrl, { method: "POST", headers, body });
    },

    /** The headers and body of that POST, for a test that hands it to the app itself. */
    signedPost(inboxUrl: string, activity: Json, options: SendOptions = {}) {
      const name = options.as ?? "alice";
      const document: Json = { "@context": AS_CONTEXT, ...activity };
      const body = JSON.stringify(document);
      const target = new URL(inboxUrl);
      const signature = options.signature ?? "valid";
      const base = { "Content-Type": "application/activity+json", Accept: "application/json" };
      let headers: Record<string, string> = base;
      if (signature !== "none") {
        const keyId = keyIdOf(options.keyOf ?? name);
        const key = signature === "wrong-key" ? strangerKeys.privateKey : keys.privateKey;
        headers = { ...base, ...signedHeaders(target, body, keyId, key) };
      }
      const sent = signature === "tampered" ? body.replace(/}$/, ',"tampered":true}') : body;
      return { headers, body: sent };
    },

    /** Resolves with the first received activity matching `predicate`, or fails after `timeoutMs`. */
    async waitFor(
      predicate: (received: ReceivedActivity) => boolean,
      timeoutMs = 5000,
    ): Promise<ReceivedActivity> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find(predicate);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching activity within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.min(left, 200));
          function done() {
            clearTimeout(timer);
            waiters.delete(done);
            resolve();
          }
          waiters.add(done);
        });
      }
    },

    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type ActivityPubPeer = Awaited<ReturnType<typeof startActivityPubPeer>>;
