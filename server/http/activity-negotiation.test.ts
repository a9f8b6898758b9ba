import { describe, expect, it } from "vitest";
import { varyOnAccept, wantsActivityJson } from "./activity-negotiation.ts";

describe("wantsActivityJson", () => {
  it.each([
    ["application/activity+json", true],
    ['application/ld+json; profile="https://www.w3.org/ns/activitystreams"', true],
    ["application/activity+json, application/ld+json", true],
    ["text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", false],
    ["text/html;q=0.5, application/activity+json", true],
    ["application/activity+json;q=0.5, text/html", false],
    ["application/activity+json, text/html", false],
    ["application/json", false],
    ["*/*", false],
    ["", false],
  ])("%s → %s", (accept, expected) => {
    expect(wantsActivityJson(accept)).toBe(expected);
  });
});

describe("varyOnAccept", () => {
  it("adds Accept once, keeping what is there", () => {
    expect(varyOnAccept(null)).toBe("Accept");
    expect(varyOnAccept("Accept-Encoding")).toBe("Accept-Encoding, Accept");
    expect(varyOnAccept("accept, Cookie")).toBe("accept, Cookie");
    expect(varyOnAccept("*")).toBe("*");
  });
});
