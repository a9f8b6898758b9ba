import { describe, expect, it } from "vitest";
import { z } from "zod/mini";
import { ECHO_COUNTS_PATH, readEchoCounts } from "./echo-counts.ts";
import { endpoints } from "./endpoints.ts";
import { type EchoCount, echoCounts } from "./schemas/interactions.ts";

/**
 * The browser reads the echo counts without zod (docs/decisions/030-echo-counts-without-the-
 * contract.md); the contract's schema stays the description. Every answer here is decoded both
 * ways and must come out the same: accepted with the same value, or refused by both.
 */
function bothWays(json: unknown) {
  // Any JSON at all, as the browser receives it: the schema is what refuses a wrong one.
  const decoded = z.safeDecode(echoCounts, json as z.input<typeof echoCounts>);
  return { contract: decoded.success ? decoded.data : undefined, reader: readEchoCounts(json) };
}

const counts: EchoCount[] = [
  { stanzaIndex: null, count: 3, userHasEchoed: false },
  { stanzaIndex: 0, count: 1, userHasEchoed: true },
  { stanzaIndex: 12, count: 0, userHasEchoed: false },
];
const wire = z.encode(echoCounts, counts) as Record<string, unknown>[];

describe("the echo counts read without the contract", () => {
  it("is the call the contract describes", () => {
    expect(endpoints.listEchoCounts).toMatchObject({ method: "GET", path: ECHO_COUNTS_PATH });
  });

  it("decodes what the server sends as the contract does", () => {
    expect(wire.map((item) => item.stanzaIndex)).toEqual(["", "0", "12"]);
    expect(bothWays(wire)).toEqual({ contract: counts, reader: counts });
    expect(bothWays([])).toEqual({ contract: [], reader: [] });
    // A field the schema does not name is dropped by both.
    const extra = [{ ...wire[0], poemId: 7 }];
    expect(bothWays(extra)).toEqual({ contract: [counts[0]], reader: [counts[0]] });
  });

  const refused: [string, unknown][] = [
    ["not a list", { stanzaIndex: "", count: 1, userHasEchoed: false }],
    ["null", null],
    ["an item that is not an object", [3]],
    ["an item that is a list", [[]]],
    ["a stanza index as a number", [{ ...wire[1], stanzaIndex: 0 }]],
    ["a stanza index with a leading zero", [{ ...wire[1], stanzaIndex: "01" }]],
    ["a negative stanza index", [{ ...wire[1], stanzaIndex: "-1" }]],
    ["a stanza index past a safe integer", [{ ...wire[1], stanzaIndex: "9007199254740993" }]],
    ["a stanza index with spaces", [{ ...wire[1], stanzaIndex: " 1" }]],
    ["a count that is not whole", [{ ...wire[1], count: 1.5 }]],
    ["a count as text", [{ ...wire[1], count: "1" }]],
    ["a count past a safe integer", [{ ...wire[1], count: 2 ** 53 }]],
    ["no count", [{ stanzaIndex: "1", userHasEchoed: true }]],
    ["userHasEchoed as text", [{ ...wire[1], userHasEchoed: "true" }]],
    ["no userHasEchoed", [{ stanzaIndex: "1", count: 1 }]],
    ["one good item and one bad", [wire[0], { ...wire[1], count: null }]],
  ];
  it.each(refused)("refuses %s, as the contract does", (_, json) => {
    expect(bothWays(json)).toEqual({ contract: undefined, reader: undefined });
  });
});
