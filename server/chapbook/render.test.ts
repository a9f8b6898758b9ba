import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { stanzaLines } from "../../common/stanza.ts";
import { DEMO_POEMS } from "../db/demo/content.ts";
import type { ChapbookContent } from "./content.ts";
import { renderChapbook } from "./render.ts";

/** The niceness of each thread of this process, from /proc (field 19 of each task's stat). */
function threadNiceness(): number[] {
  return fs.readdirSync("/proc/self/task").map((task) => {
    const stat = fs.readFileSync(`/proc/self/task/${task}/stat`, "utf8");
    // The fields after the command's name, which is in parentheses and may hold spaces: the
    // third field is the first here, so the nineteenth is the seventeenth.
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  });
}

const content: ChapbookContent = {
  title: "Small Fires",
  subtitle: "",
  dedication: "",
  epigraph: "",
  acknowledgements: "",
  aboutPoet: "",
  author: "Rowan Ash",
  siteUrl: "http://localhost:3000",
  slug: "small-fires",
  copyright: "© 2026 Rowan Ash",
  modified: "2026-11-29T00:00:00.000Z",
  published: "2026-11-29",
  trim: "a5",
  bleed: false,
  rectoStarts: false,
  face: "eb-garamond",
  cover: null,
  poems: DEMO_POEMS.slice(0, 3).map((poem) => ({
    title: poem.title,
    stanzas: poem.stanzas.map((stanza) => stanzaLines(stanza)),
    reading: null,
  })),
};

// A build gives way to the server's thread (docs/decisions/076-chapbook-builds-give-way.md):
// its thread runs at the lowest priority where the system lets a thread have its own.
describe.runIf(process.platform === "linux")("a chapbook's build thread", () => {
  it("runs at the lowest priority while it lays the book out, and the server's thread does not", async () => {
    const before = threadNiceness();
    const seen: number[][] = [];
    const files = await renderChapbook(content, () => seen.push(threadNiceness()));
    expect(files.pdf.length).toBeGreaterThan(0);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.some((niceness) => niceness.includes(19))).toBe(true);
    // This process's own threads keep their priority.
    expect(threadNiceness()[0]).toBe(before[0]);
    expect(before[0]).toBe(0);
  });
});
