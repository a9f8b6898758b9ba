import { describe, expect, it } from "vitest";
import { slugFromTitle, tagSlug } from "./slug.ts";

describe("slugs", () => {
  it.each([
    ["The Kitchen Table", "the-kitchen-table"],
    ["What My Son Asked the River?", "what-my-son-asked-the-river"],
    ["  Pilgrim's   Feet -- a walk ", "pilgrims-feet-a-walk"],
    ["Café & Crème", "caf-crme"],
  ])("fills a poem slug from %j", (title, slug) => {
    expect(slugFromTitle(title)).toBe(slug);
  });

  it("makes a theme slug from a tag name", () => {
    expect(tagSlug("Belonging")).toBe("belonging");
    expect(tagSlug("Late  Autumn")).toBe("late-autumn");
  });
});
