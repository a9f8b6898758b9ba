import type { KvKey, KvStore } from "@fedify/fedify";

/**
 * Remote actors' public keys, remembered in this process in front of the shared store
 * (docs/decisions/044-fediverse-store-and-queue.md): every signed activity reads its sender's
 * key, and a busy sender's key need not be read from the database each time. The store stays the
 * truth: every write goes to it, and what is remembered here is dropped after `REMEMBER_MS` or at
 * the first write or delete of its key through this instance. A key another instance refreshed
 * meanwhile does no harm: a signature that fails against a cached key makes Fedify fetch the key
 * afresh and verify again, so every activity is still verified against its actor's current key.
 */
export const PUBLIC_KEY_PREFIX: KvKey = ["_fedify", "publicKey"];

/** How long a key read from the store is used before it is read again. */
const REMEMBER_MS = 5 * 60 * 1000;

/** At most this many keys are remembered; past it the oldest go first. */
const MAX_REMEMBERED = 10_000;

const isPublicKey = (key: KvKey) =>
  key.length > PUBLIC_KEY_PREFIX.length && PUBLIC_KEY_PREFIX.every((part, i) => key[i] === part);

export function rememberPublicKeys(store: KvStore, clock: () => number = Date.now): KvStore {
  const remembered = new Map<string, { value: unknown; until: number }>();
  const nameOf = (key: KvKey) => JSON.stringify(key);
  const remember = (name: string, value: unknown) => {
    remembered.delete(name);
    if (remembered.size >= MAX_REMEMBERED) {
      const oldest = remembered.keys().next().value;
      if (oldest !== undefined) remembered.delete(oldest);
    }
    remembered.set(name, { value, until: clock() + REMEMBER_MS });
  };
  return {
    async get<T = unknown>(key: KvKey): Promise<T | undefined> {
      if (!isPublicKey(key)) return store.get<T>(key);
      const name = nameOf(key);
      const known = remembered.get(name);
      if (known && known.until > clock()) return known.value as T;
      remembered.delete(name);
      const value = await store.get<T>(key);
      // An absent key is not remembered: it is fetched and written at once, through `set`.
      // A key Fedify could not fetch (null) is kept by the store for ten minutes only, so it is
      // read there each time, never held here past its own expiry.
      if (value !== undefined && value !== null) remember(name, value);
      return value;
    },
    async set(key, value, options) {
      if (isPublicKey(key)) remembered.delete(nameOf(key));
      await store.set(key, value, options);
    },
    async delete(key) {
      if (isPublicKey(key)) remembered.delete(nameOf(key));
      await store.delete(key);
    },
    async cas(key, expectedValue, newValue, options) {
      if (isPublicKey(key)) remembered.delete(nameOf(key));
      if (!store.cas) throw new Error("the shared store has no compare-and-swap");
      return store.cas(key, expectedValue, newValue, options);
    },
    list: (prefix) => store.list(prefix),
  };
}
