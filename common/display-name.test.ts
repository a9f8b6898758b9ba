import { describe, expect, it } from "vitest";
import { joinDisplayName, normaliseDisplayName, splitDisplayName } from "./display-name.ts";

describe("display names", () => {
  it("splits the first word from the rest, and joins them back", () => {
    expect(splitDisplayName("Rowan")).toEqual({ firstName: "Rowan", lastName: null });
    expect(splitDisplayName("Rowan Ash Thorne")).toEqual({
      firstName: "Rowan",
      lastName: "Ash Thorne",
    });
    expect(splitDisplayName(null)).toEqual({ firstName: null, lastName: null });
    expect(joinDisplayName("Rowan", "Ash Thorne")).toBe("Rowan Ash Thorne");
    expect(joinDisplayName(null, null)).toBeNull();
  });

  it("folds spaces and controls, removes bidirectional controls, keeps markup", () => {
    expect(normaliseDisplayName("  Rowan \t\n Ash  ")).toBe("Rowan Ash");
    expect(normaliseDisplayName("\u202eRowan\u202c \u2067Ash\u2069\u200e\u200f\u061c")).toBe(
      "Rowan Ash",
    );
    expect(normaliseDisplayName("<b>Rowan</b>")).toBe("<b>Rowan</b>");
    expect(normaliseDisplayName("Zoe\u0308")).toBe("Zoë");
    // A joiner inside an emoji is not a bidirectional control.
    expect(normaliseDisplayName("👩‍👩‍👧")).toBe("👩‍👩‍👧");
  });
});
