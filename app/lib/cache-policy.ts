import type { CacheHandle } from "../../common/cache-handle.ts";

/** A page the same for every reader of an audience (common/cache-handle.ts). */
export const sharedPage = { cache: "shared" } as const satisfies CacheHandle;
/** A page the same for every anonymous reader only. */
export const sharedWithAnonymousReaders = { cache: "anonymous" } as const satisfies CacheHandle;
