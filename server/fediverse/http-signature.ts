import { createHash, KeyObject, sign } from "node:crypto";

/**
 * Draft-cavage HTTP Signatures (`rsa-sha256`) for the fan-out's POSTs, as Mastodon verifies them
 * (docs/decisions/047-fediverse-delivery.md): the same `Signature` header Fedify's
 * `signRequest` writes, made with node:crypto on a `KeyObject` converted once from the actor's
 * key. Per POST only the date and the signature are new; the body's digest is computed once per
 * activity and shared by every inbox it goes to.
 */

/** The headers signed, in order: what Mastodon requires of a POST, and the body's type. */
const SIGNED = "(request-target) host date digest content-type";

const keyObjects = new WeakMap<CryptoKey, KeyObject>();

/** The node:crypto form of a WebCrypto private key, converted once per key. */
function keyObjectOf(privateKey: CryptoKey): KeyObject {
  let key = keyObjects.get(privateKey);
  if (!key) {
    key = KeyObject.from(privateKey);
    keyObjects.set(privateKey, key);
  }
  return key;
}

/** `SHA-256=…`, the Digest header of a body. */
export function bodyDigest(body: Uint8Array | string): string {
  return `SHA-256=${createHash("sha256").update(body).digest("base64")}`;
}

/**
 * The request's headers with Host, Date, Digest and Signature added. The RSA signature is made
 * on libuv's thread pool (node:crypto's `sign` with a callback), not on the thread that serves
 * pages.
 */
export async function signedHeaders(
  url: URL,
  headers: Record<string, string> & { "content-type": string },
  digest: string,
  signer: { keyId: URL; privateKey: CryptoKey },
  now: Date = new Date(),
): Promise<Record<string, string>> {
  const date = now.toUTCString();
  const message = [
    `(request-target): post ${url.pathname}`,
    `host: ${url.host}`,
    `date: ${date}`,
    `digest: ${digest}`,
    `content-type: ${headers["content-type"]}`,
  ].join("\n");
  const signature = await new Promise<Buffer>((resolve, reject) =>
    sign("sha256", Buffer.from(message), keyObjectOf(signer.privateKey), (error, made) =>
      error ? reject(error) : resolve(made),
    ),
  );
  return {
    ...headers,
    host: url.host,
    date,
    digest,
    signature: `keyId="${signer.keyId.href}",algorithm="rsa-sha256",headers="${SIGNED}",signature="${signature.toString("base64")}"`,
  };
}
