import type { EchoCount } from "./schemas/interactions.ts";

/**
 * The echo counts a poem page reads as it mounts, without zod (docs/decisions/030-echo-counts-
 * without-the-contract.md): the call's path, the echoed stanza's wire text, and the one reader of
 * the answer that runs in the browser. `common/schemas/interactions.ts` builds the call's answer
 * schema from the same pieces, and `common/echo-counts.test.ts` holds the reader to that schema.
 */
export const ECHO_COUNTS_PATH = "/api/poems/:slug/echos";

/** An echo's stanza as stored and sent: its index's digits, "" for the whole poem. */
export const ECHOED_STANZA_TEXT = /^(0|[1-9]\d*)?$/;

export function echoedStanzaFromText(text: string): number | null {
  return text === "" ? null : Number(text);
}

export function echoedStanzaToText(index: number | null): string {
  return index === null ? "" : String(index);
}

/**
 * The answer of GET {@link ECHO_COUNTS_PATH} decoded as the contract's `echoCounts` decodes it
 * (fields it does not name dropped, the stanza's text turned into its index), or undefined for
 * any answer that schema refuses.
 */
export function readEchoCounts(json: unknown): EchoCount[] | undefined {
  if (!Array.isArray(json)) return undefined;
  const counts: EchoCount[] = [];
  for (const item of json as unknown[]) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) return undefined;
    const { stanzaIndex: text, count, userHasEchoed } = item as Record<string, unknown>;
    if (typeof text !== "string" || !ECHOED_STANZA_TEXT.test(text)) return undefined;
    const stanzaIndex = echoedStanzaFromText(text);
    if (stanzaIndex !== null && !Number.isSafeInteger(stanzaIndex)) return undefined;
    if (!Number.isSafeInteger(count) || typeof userHasEchoed !== "boolean") return undefined;
    counts.push({ stanzaIndex, count: count as number, userHasEchoed });
  }
  return counts;
}
