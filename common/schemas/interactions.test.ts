import { describe, expect, it } from "vitest";
import { visibleLength } from "../text.ts";
import { echoInput, whisperInput } from "./interactions.ts";

describe("interaction inputs", () => {
  it("counts characters as the reader sees them", () => {
    expect(visibleLength("abc")).toBe(3);
    expect(visibleLength("👍🏽")).toBe(1);
    expect(visibleLength("e\u0301")).toBe(1);
  });

  it.each([
    ["", false],
    ["   ", false],
    ["x", true],
    ["x".repeat(280), true],
    [` ${"x".repeat(280)} `, true],
    ["x".repeat(281), false],
    ["👍🏽".repeat(280), true],
  ])("whisper body %j valid: %s", (body, valid) => {
    expect(whisperInput.safeParse({ stanzaIndex: 0, body }).success).toBe(valid);
  });

  it("reads the echo's stanza index as a number, or null for the whole poem", () => {
    expect(echoInput.parse({}).stanzaIndex).toBeNull();
    expect(echoInput.parse({ stanzaIndex: "" }).stanzaIndex).toBeNull();
    expect(echoInput.parse({ stanzaIndex: "3" }).stanzaIndex).toBe(3);
    expect(echoInput.parse({ stanzaIndex: 2 }).stanzaIndex).toBe(2);
    expect(echoInput.safeParse({ stanzaIndex: "two" }).success).toBe(false);
    expect(echoInput.safeParse({ stanzaIndex: 1.5 }).success).toBe(false);
  });
});
