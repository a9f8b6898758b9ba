import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  parseRequestSignature,
  verifyDigestHeader,
  verifyDraftSignature,
} from "@misskey-dev/node-http-message-signatures";

/** One POST an inbox accepted, its signature checked. */
export interface ReceivedActivity {
  inbox: string;
  activity: { id: string; type: string; object?: unknown; [key: string]: unknown };
}

/**
 * Inboxes on loopback that check each POST as Mastodon does (draft-cavage signature over
 * `(request-target) host date digest`, and the Digest of the body) with a library other than
 * Fedify, so a delivery that a real server would refuse fails here too. Every path is an inbox;
 * `answers` scripts the statuses a path gives before it answers 202 (a peer that is down, gone
 * or busy). A POST whose signature does not verify gets 401 and is not recorded.
 */
export async function startInboxServer(options: {
  publicKey: CryptoKey;
  answers?: Map<string, { status: number; headers?: Record<string, string> }[]>;
  /** How long each accepted POST takes to answer (a slow server, so a fan-out lasts). */
  delayMs?: number;
}) {
  const received: ReceivedActivity[] = [];
  const refused: string[] = [];
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const path = request.url ?? "/";
    try {
      const parsed = parseRequestSignature(request, {
        requiredComponents: { draft: ["(request-target)", "host", "date", "digest"] },
      });
      if (parsed.version !== "draft") throw new Error("not a draft-cavage signature");
      const isSigned = await verifyDraftSignature(parsed.value, options.publicKey);
      const isDigestRight = await verifyDigestHeader(request, body, true);
      if (!isSigned || !isDigestRight) throw new Error("signature or digest does not verify");
    } catch (error) {
      refused.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
      response.writeHead(401).end();
      return;
    }
    const scripted = options.answers?.get(path)?.shift();
    if (scripted) {
      response.writeHead(scripted.status, scripted.headers).end();
      return;
    }
    received.push({ inbox: path, activity: JSON.parse(body.toString("utf8")) });
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    response.writeHead(202).end();
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    refused,
    /** An inbox's URL on `localhost`, a host other than the site's. */
    inbox: (path: string) => `http://localhost:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
