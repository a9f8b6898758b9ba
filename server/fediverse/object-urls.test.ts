import { describe, expect, it } from "vitest";
import { poemObjectUrl, readPoemObjectUrl, stanzaObjectUrl } from "./object-urls.ts";

const site = new URL("https://verse.example");

describe("poem and stanza object ids", () => {
  it("reads back the ids it makes", () => {
    expect(readPoemObjectUrl(site, poemObjectUrl(site, "night-rain").href)).toEqual({
      slug: "night-rain",
      stanzaIndex: null,
    });
    expect(readPoemObjectUrl(site, stanzaObjectUrl(site, "night-rain", 3).href)).toEqual({
      slug: "night-rain",
      stanzaIndex: 3,
    });
  });

  it("names nothing on another host, another page or with a bad index", () => {
    for (const id of [
      "https://elsewhere.example/poetry/night-rain",
      "https://verse.example/books/night-rain",
      "https://verse.example/share/poem/night-rain",
      "https://verse.example/share/poem/night-rain?s=-1",
      "https://verse.example/share/poem/night-rain?s=one",
      "not a url",
    ]) {
      expect(readPoemObjectUrl(site, id)).toBeNull();
    }
  });
});
