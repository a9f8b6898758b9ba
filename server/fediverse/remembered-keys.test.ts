import { MemoryKvStore } from "@fedify/fedify";
import { describe, expect, it } from "vitest";
import { PUBLIC_KEY_PREFIX, rememberPublicKeys } from "./remembered-keys.ts";

/** The shared store (Fedify's in-memory one), counting the reads that reach it. */
function sharedStore() {
  const store = new MemoryKvStore();
  let reads = 0;
  const counted = {
    get: <T>(key: Parameters<MemoryKvStore["get"]>[0]) => {
      reads += 1;
      return store.get<T>(key);
    },
    set: store.set.bind(store),
    delete: store.delete.bind(store),
    cas: store.cas.bind(store),
    list: store.list.bind(store),
  };
  return { store, counted, reads: () => reads };
}

const key = [...PUBLIC_KEY_PREFIX, "https://peer.example/users/alice#main-key"] as const;

describe("senders' keys remembered in front of the shared store (decision 044)", () => {
  it("reads a key from the store once, then from memory until it is written here", async () => {
    const shared = sharedStore();
    const kv = rememberPublicKeys(shared.counted);
    await shared.store.set(key, { publicKeyPem: "one" });
    expect(await kv.get(key)).toEqual({ publicKeyPem: "one" });
    expect(await kv.get(key)).toEqual({ publicKeyPem: "one" });
    expect(shared.reads()).toBe(1);
    // Fedify writes a key it fetched afresh (a signature failed against the cached one).
    await kv.set(key, { publicKeyPem: "two" });
    expect(await kv.get(key)).toEqual({ publicKeyPem: "two" });
    await kv.delete(key);
    expect(await kv.get(key)).toBeUndefined();
  });

  it("reads the store again once the memory's time is up", async () => {
    const shared = sharedStore();
    let now = 0;
    const kv = rememberPublicKeys(shared.counted, () => now);
    await shared.store.set(key, { publicKeyPem: "one" });
    await kv.get(key);
    await shared.store.set(key, { publicKeyPem: "rotated elsewhere" });
    now += 4 * 60 * 1000;
    expect(await kv.get(key)).toEqual({ publicKeyPem: "one" });
    now += 2 * 60 * 1000;
    expect(await kv.get(key)).toEqual({ publicKeyPem: "rotated elsewhere" });
  });

  it("never remembers anything but present keys", async () => {
    const shared = sharedStore();
    const kv = rememberPublicKeys(shared.counted);
    const idempotence = ["_fedify", "activityIdempotence", "https://peer.example/1"] as const;
    await kv.set(idempotence, true);
    await kv.get(idempotence);
    await kv.get(idempotence);
    // A key Fedify could not fetch is null in the store, with the store's own expiry.
    await kv.set(key, null);
    await kv.get(key);
    await kv.get(key);
    expect(shared.reads()).toBe(4);
  });
});
