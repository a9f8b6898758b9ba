/**
 * Answers kept in memory by key. Requests that arrive while an answer is being read wait for
 * that reading rather than starting another; a failed reading (the database away) is not kept.
 * An answer is kept until it is forgotten (after a write that changes it, or a content change)
 * or, with `lifeMs`, until it is that old. Past `maxEntries` the memory starts over.
 *
 * An answer's age is a timer, so it is measured on the monotonic clock (`performance.now()`),
 * not the services' clock: a test that sets the site's "now" must not keep answers for ever, and
 * a wall clock set back must not either.
 */
export function createMemo<T>(options: { maxEntries: number; lifeMs?: number }) {
  const lifeMs = options.lifeMs ?? Number.POSITIVE_INFINITY;
  const entries = new Map<string, { readAt: number; answer: Promise<T> }>();
  return {
    get(key: string, read: () => Promise<T>): Promise<T> {
      const kept = entries.get(key);
      if (kept && performance.now() - kept.readAt < lifeMs) return kept.answer;
      if (entries.size >= options.maxEntries) entries.clear();
      const answer = read();
      entries.set(key, { readAt: performance.now(), answer });
      answer.catch(() => {
        if (entries.get(key)?.answer === answer) entries.delete(key);
      });
      return answer;
    },
    forget(key: string) {
      entries.delete(key);
    },
    clear() {
      entries.clear();
    },
  };
}
