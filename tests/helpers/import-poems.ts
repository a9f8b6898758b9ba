import { strToU8, zipSync } from "fflate";

/**
 * Exports written to the platforms' published formats (docs/product/import.md), small enough to
 * read at a glance in a test.
 */

/** A .zip of plain poems: front matter (title, date, tags, slug) or a first-line title. */
export function plainPoemsZip(): Uint8Array {
  return zipSync({
    "poems/salt-road.md": strToU8(
      [
        "---",
        "title: Salt Road",
        "date: 2019-04-01",
        "tags: [Sea, Road]",
        "---",
        "",
        "The road runs down to salt,",
        "  and the salt runs on.",
        "",
        "We walked it twice",
        "and once came back.",
        "",
      ].join("\n"),
    ),
    "poems/harbour-lights.txt": strToU8(
      ["Harbour Lights", "", "Each light a name", "the water says back.", ""].join("\n"),
    ),
    "poems/left-out.md": strToU8(
      ["---", "title: Left Out", "date: 2020-02-02", "---", "", "Not this one, not yet.", ""].join(
        "\n",
      ),
    ),
  });
}
