import { type KeyCache, type KvStore, verifyRequest } from "@fedify/fedify";
import { CryptographicKey } from "@fedify/vocab";
import { type DocumentLoader, preloadedContexts, UrlError } from "@fedify/vocab-runtime";
import { PUBLIC_KEY_PREFIX } from "./remembered-keys.ts";

/**
 * Whether an inbox request is signed by a key the site already holds, checked without fetching
 * anything (docs/decisions/065-inbox-limits-by-who-proved-it.md). An address that has spent its
 * budget of posts that proved nothing is still heard when it signs with a known key — a server
 * sharing that address must not be silenced by its neighbour — but it can no longer make the site
 * fetch keys: every post that fails here is refused at once, not verified the long way.
 */
export function knownKeyCheck(kv: KvStore, contextLoader: DocumentLoader) {
  const nothingFetched: DocumentLoader = async (url, options) => {
    if (url in preloadedContexts) return contextLoader(url, options);
    throw new UrlError(`Not fetched for a spent address: ${url}`);
  };
  const keyCache: KeyCache = {
    async get(keyId) {
      // What Fedify keeps of a key it fetched (its KvKeyCache); a key not held is unavailable.
      const stored = await kv.get([...PUBLIC_KEY_PREFIX, keyId.href]);
      if (stored === undefined || stored === null) return null;
      return CryptographicKey.fromJsonLd(stored, {
        documentLoader: nothingFetched,
        contextLoader,
      }).catch(() => null);
    },
    async set() {},
  };
  return async (request: Request): Promise<boolean> => {
    const key = await verifyRequest(request, {
      documentLoader: nothingFetched,
      contextLoader,
      keyCache,
      spec: request.headers.has("signature-input") ? "rfc9421" : "draft-cavage-http-signatures-12",
    }).catch(() => null);
    return key !== null;
  };
}
