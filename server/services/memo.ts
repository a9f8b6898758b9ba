/**
 * Answers kept in memory by key. Requests that arrive while an answer is being read wait for
 * that reading rather than starting another; a failed reading (the database away) is not kept.
 * An answer is kept until it is forgotten (after a write that changes it, or a content change)
 * or, with `lifeMs`, until it is that old. Past `maxEntries` the memory starts over.
 */
export function createMemo<T>(options: { maxEntries: number; lifeMs?: number }) {
  const lifeMs = options.lifeMs ?? Number.POSITIVE_INFINITY;
  const entries = new Map<string, { readAt: number; answer: Promise<T> }>();
  return {
    get(key: string, read: () => Promise<T>): Promise<T> {
      const kept = entries.get(key);
      if (kept && Date.now() - kept.readAt < lifeMs) return kept.answer;
      if (entries.size >= options.maxEntries) entries.clear();
      const answer = read();
      entries.set(key, { readAt: Date.now(), answer });
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
