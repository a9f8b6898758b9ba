import { describe, expect, it } from "vitest";
import { copyrightLine } from "./site-settings.ts";

describe("copyrightLine", () => {
  const unset = { copyrightFrom: null, poetName: null, siteTitle: "Ember Verse" };

  it("is the original line until the poet gives a first year", () => {
    expect(copyrightLine(unset, 2026)).toBe("© 2025 Ember Verse. All rights reserved.");
    expect(copyrightLine({ ...unset, poetName: "Rowan Ash" }, 2026)).toBe(
      "© 2025 Ember Verse. All rights reserved.",
    );
  });

  it("runs from the first year to the current one, in the poet's name", () => {
    expect(copyrightLine({ ...unset, copyrightFrom: 2019, poetName: "Rowan Ash" }, 2026)).toBe(
      "© 2019–2026 Rowan Ash. All rights reserved.",
    );
  });

  it("is one year while the first is the current one, and the site's name without a poet's", () => {
    expect(copyrightLine({ ...unset, copyrightFrom: 2026 }, 2026)).toBe(
      "© 2026 Ember Verse. All rights reserved.",
    );
  });
});
