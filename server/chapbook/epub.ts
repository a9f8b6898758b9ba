import fs from "node:fs";
import { strToU8, type Zippable, zipSync } from "fflate";
import * as otherRoutes from "../../common/other-routes.ts";
import { prefixOf } from "../../common/path-builder.ts";
import { CHAPBOOK_FACE_NAMES } from "../../common/schemas/chapbook-faces.ts";
import { vttTimestamp } from "../../common/stanza-timings.ts";
import { escapeMarkup as escapeXml } from "../escape.ts";
import type { ChapbookContent, ChapbookPoem } from "./content.ts";
import { faceFiles } from "./faces.ts";

/**
 * A chapbook as an EPUB 3 (docs/decisions/067-chapbook-epub.md): one XHTML document per poem
 * with the site's verse markup (a stanza a block, a line a block with its indentation kept and a
 * hanging indent when it wraps) in the chapbook's face, embedded, a navigation document, the
 * poet's cover or a typographic one (decision 074), and, for each poem
 * with a timed reading, a Media Overlay that reads it aloud stanza by stanza.
 */

/** The embedded face's files and the weights and styles they are declared with. */
const FONT_FACES = [
  { style: "roman", file: "fonts/roman.woff", weight: 400, italic: false },
  { style: "italic", file: "fonts/italic.woff", weight: 400, italic: true },
  { style: "medium", file: "fonts/medium.woff", weight: 500, italic: false },
] as const;

const stylesheet = (content: ChapbookContent) => {
  const family = CHAPBOOK_FACE_NAMES[content.face];
  const faces = FONT_FACES.map(
    (face) =>
      `@font-face { font-family: "${family}"; src: url("${face.file}") format("woff"); font-weight: ${face.weight}; font-style: ${face.italic ? "italic" : "normal"}; }`,
  ).join("\n");
  return `${faces}
body { font-family: "${family}", Georgia, serif; line-height: 1.4; margin: 0 5%; }
h1 { font-size: 1.4em; font-weight: 500; margin: 2em 0 1.2em; page-break-after: avoid; break-after: avoid; }
.front { text-align: center; margin-top: 20%; }
.front h1 { font-size: 2em; }
.subtitle { font-style: italic; font-size: 1.2em; }
.author { margin-top: 3em; font-size: 1.1em; }
.dedication, .epigraph { font-style: italic; text-align: center; margin: 3em 10%; }
.stanza { margin: 0 0 1em; page-break-inside: avoid; break-inside: avoid; }
.line { margin: 0; padding-left: 2em; text-indent: -2em; }
.note { margin: 0 0 1em; }
.-epub-media-overlay-active { background-color: #f6e7c8; }
`;
};

const xhtml = (title: string, body: string, extraNamespace = "") =>
  `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"${extraNamespace} xml:lang="en" lang="en">
<head>
<meta charset="UTF-8"/>
<title>${escapeXml(title)}</title>
<link rel="stylesheet" type="text/css" href="style.css"/>
</head>
<body>
${body}
</body>
</html>
`;

/** A line of verse: its leading spaces become its indentation, in ems, as on the site. */
function verseLine(line: string): string {
  const words = line.trimStart();
  const indent = line.length - words.length;
  const style = indent > 0 ? ` style="margin-left: ${(indent * 0.5).toFixed(1)}em"` : "";
  return `<p class="line"${style}>${escapeXml(words)}</p>`;
}

const paragraphs = (text: string, className: string) =>
  text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map(
      (paragraph) =>
        `<p class="${className}">${escapeXml(paragraph).replaceAll("\n", "<br/>")}</p>`,
    )
    .join("\n");

const poemFile = (index: number) => `poem-${String(index + 1).padStart(3, "0")}`;

function poemDocument(poem: ChapbookPoem, index: number): string {
  const stanzas = poem.stanzas
    .map(
      (lines, stanza) =>
        `<div class="stanza" id="s-${stanza}">\n${lines.map(verseLine).join("\n")}\n</div>`,
    )
    .join("\n");
  return xhtml(
    poem.title,
    `<section epub:type="chapter" id="${poemFile(index)}">\n<h1>${escapeXml(poem.title)}</h1>\n${stanzas}\n</section>`,
  );
}

/** SMIL clock value: "0:00:04.200". */
const clock = (seconds: number) => vttTimestamp(seconds).replace(/^0/, "");

function overlay(poem: ChapbookPoem, index: number): string | undefined {
  const reading = poem.reading;
  if (!reading) return undefined;
  const name = poemFile(index);
  const pars = reading.timings.map((start, stanza) => {
    const end = reading.timings[stanza + 1] ?? reading.duration;
    return `<par id="${name}-s${stanza}"><text src="${name}.xhtml#s-${stanza}"/><audio src="audio/${name}.${reading.extension}" clipBegin="${clock(start)}" clipEnd="${clock(end)}"/></par>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<smil xmlns="http://www.w3.org/ns/SMIL" xmlns:epub="http://www.idpf.org/2007/ops" version="3.0">
<body>
<seq id="${name}-seq" epub:textref="${name}.xhtml#${name}" epub:type="chapter">
${pars.join("\n")}
</seq>
</body>
</smil>
`;
}

function coverSvg(content: ChapbookContent): string {
  const words = content.title.split(/\s+/);
  const rows: string[] = [];
  for (const word of words) {
    const last = rows.at(-1);
    if (last !== undefined && `${last} ${word}`.length <= 16)
      rows[rows.length - 1] = `${last} ${word}`;
    else rows.push(word);
  }
  const titleRows = rows
    .map(
      (row, at) => `<text x="800" y="${900 + at * 170}" font-size="140">${escapeXml(row)}</text>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="1600" height="2560" viewBox="0 0 1600 2560">
<rect width="1600" height="2560" fill="#2b2420"/>
<rect x="100" y="100" width="1400" height="2360" fill="none" stroke="#c9a86a" stroke-width="6"/>
<g fill="#f3ead8" font-family="Georgia, serif" text-anchor="middle">
${titleRows}
${content.subtitle ? `<text x="800" y="${960 + rows.length * 170}" font-size="70" font-style="italic">${escapeXml(content.subtitle)}</text>` : ""}
<text x="800" y="2200" font-size="90">${escapeXml(content.author)}</text>
</g>
</svg>
`;
}

function frontMatter(content: ChapbookContent): string {
  const parts = [
    `<section class="front" epub:type="titlepage">`,
    `<h1>${escapeXml(content.title)}</h1>`,
    content.subtitle ? `<p class="subtitle">${escapeXml(content.subtitle)}</p>` : "",
    `<p class="author">${escapeXml(content.author)}</p>`,
    "</section>",
    content.dedication
      ? `<section epub:type="dedication">${paragraphs(content.dedication, "dedication")}</section>`
      : "",
    content.epigraph
      ? `<section epub:type="epigraph">${paragraphs(content.epigraph, "epigraph")}</section>`
      : "",
  ];
  return xhtml(content.title, parts.filter(Boolean).join("\n"));
}

function backMatter(content: ChapbookContent): string {
  const parts = [
    content.acknowledgements
      ? `<section epub:type="acknowledgments"><h1>Acknowledgements</h1>${paragraphs(content.acknowledgements, "note")}</section>`
      : "",
    content.aboutPoet
      ? `<section epub:type="appendix"><h1>About the poet</h1>${paragraphs(content.aboutPoet, "note")}</section>`
      : "",
    `<section epub:type="copyright-page"><p class="note">${escapeXml(content.copyright)}</p><p class="note">${escapeXml(content.siteUrl)}</p></section>`,
  ];
  return xhtml("About this book", parts.filter(Boolean).join("\n"));
}

function navigation(content: ChapbookContent): string {
  const items = content.poems
    .map(
      (poem, index) => `<li><a href="${poemFile(index)}.xhtml">${escapeXml(poem.title)}</a></li>`,
    )
    .join("\n");
  return xhtml(
    "Contents",
    `<nav epub:type="toc" id="toc"><h1>Contents</h1><ol>\n${items}\n<li><a href="back.xhtml">About this book</a></li>\n</ol></nav>
<nav epub:type="landmarks" hidden="hidden"><ol>
<li><a epub:type="cover" href="cover.xhtml">Cover</a></li>
<li><a epub:type="toc" href="nav.xhtml">Contents</a></li>
<li><a epub:type="bodymatter" href="${poemFile(0)}.xhtml">${escapeXml(content.poems[0]?.title ?? content.title)}</a></li>
</ol></nav>`,
  );
}

const isoSeconds = (iso: string) => `${iso.slice(0, 19)}Z`;

/** The cover's image: the poet's upload as a JPEG, or the typographic cover as SVG. */
interface CoverImage {
  name: string;
  mediaType: string;
  width: number;
  height: number;
  bytes: Uint8Array;
}

const coverImageOf = (content: ChapbookContent): CoverImage =>
  content.cover
    ? {
        name: "cover.jpg",
        mediaType: "image/jpeg",
        width: content.cover.width,
        height: content.cover.height,
        bytes: content.cover.jpeg,
      }
    : {
        name: "cover.svg",
        mediaType: "image/svg+xml",
        width: 1600,
        height: 2560,
        bytes: strToU8(coverSvg(content)),
      };

function packageDocument(
  content: ChapbookContent,
  cover: CoverImage,
  overlays: Map<number, number>,
): string {
  const manifest = [
    `<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>`,
    `<item id="style" href="style.css" media-type="text/css"/>`,
    ...FONT_FACES.map(
      (face) => `<item id="font-${face.style}" href="${face.file}" media-type="font/woff"/>`,
    ),
    `<item id="cover-image" href="${cover.name}" media-type="${cover.mediaType}" properties="cover-image"/>`,
    `<item id="cover" href="cover.xhtml" media-type="application/xhtml+xml" properties="svg"/>`,
    `<item id="front" href="front.xhtml" media-type="application/xhtml+xml"/>`,
    `<item id="back" href="back.xhtml" media-type="application/xhtml+xml"/>`,
  ];
  const spine = [`<itemref idref="cover"/>`, `<itemref idref="front"/>`, `<itemref idref="nav"/>`];
  const durations: string[] = [];
  content.poems.forEach((poem, index) => {
    const name = poemFile(index);
    const reading = overlays.has(index) ? poem.reading : null;
    const overlayAttribute = reading ? ` media-overlay="${name}-smil"` : "";
    manifest.push(
      `<item id="${name}" href="${name}.xhtml" media-type="application/xhtml+xml"${overlayAttribute}/>`,
    );
    spine.push(`<itemref idref="${name}"/>`);
    if (reading) {
      manifest.push(
        `<item id="${name}-smil" href="${name}.smil" media-type="application/smil+xml"/>`,
        `<item id="${name}-audio" href="audio/${name}.${reading.extension}" media-type="${reading.mediaType}"/>`,
      );
      durations.push(
        `<meta property="media:duration" refines="#${name}-smil">${clock(overlays.get(index) ?? 0)}</meta>`,
      );
    }
  });
  spine.push(`<itemref idref="back"/>`);
  const total = [...overlays.values()].reduce((sum, seconds) => sum + seconds, 0);
  const overlayMetadata =
    durations.length > 0
      ? [
          ...durations,
          `<meta property="media:duration">${clock(total)}</meta>`,
          `<meta property="media:active-class">-epub-media-overlay-active</meta>`,
        ]
      : [];
  return `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="en">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:identifier id="book-id">${escapeXml(new URL(`${prefixOf(otherRoutes.chapbookFile.path)}${content.slug}`, content.siteUrl).toString())}</dc:identifier>
<dc:title>${escapeXml(content.title)}</dc:title>
<dc:creator id="author">${escapeXml(content.author)}</dc:creator>
<dc:language>en</dc:language>
<dc:date>${content.published}</dc:date>
<dc:rights>${escapeXml(content.copyright)}</dc:rights>
<meta property="dcterms:modified">${isoSeconds(content.modified)}</meta>
${overlayMetadata.join("\n")}
</metadata>
<manifest>
${manifest.join("\n")}
</manifest>
<spine>
${spine.join("\n")}
</spine>
</package>
`;
}

const CONTAINER = `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles>
<rootfile full-path="EPUB/package.opf" media-type="application/oebps-package+xml"/>
</rootfiles>
</container>
`;

/** The EPUB's bytes. `onPoem` is told as each poem is done, for the build's progress. */
export function makeEpub(content: ChapbookContent, onPoem: (done: number) => void = () => {}) {
  const files: Zippable = {
    // First and stored, as the OCF container requires, so a reader can tell what the zip is.
    mimetype: [strToU8("application/epub+zip"), { level: 0 }],
    "META-INF/container.xml": strToU8(CONTAINER),
  };
  const add = (name: string, text: string) => {
    files[`EPUB/${name}`] = strToU8(text);
  };
  add("style.css", stylesheet(content));
  const fonts = faceFiles(content.face);
  for (const face of FONT_FACES) {
    // Stored: WOFF is compressed already.
    files[`EPUB/${face.file}`] = [new Uint8Array(fs.readFileSync(fonts[face.style])), { level: 0 }];
  }
  const cover = coverImageOf(content);
  files[`EPUB/${cover.name}`] = [cover.bytes, { level: content.cover ? 0 : 6 }];
  add(
    "cover.xhtml",
    xhtml(
      content.title,
      `<div style="text-align: center"><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" viewBox="0 0 ${cover.width} ${cover.height}" width="100%" height="100%"><image width="${cover.width}" height="${cover.height}" xlink:href="${cover.name}"/></svg></div>`,
    ),
  );
  add("front.xhtml", frontMatter(content));
  add("nav.xhtml", navigation(content));
  add("back.xhtml", backMatter(content));
  const overlays = new Map<number, number>();
  content.poems.forEach((poem, index) => {
    const name = poemFile(index);
    add(`${name}.xhtml`, poemDocument(poem, index));
    const smil = overlay(poem, index);
    if (smil && poem.reading) {
      add(`${name}.smil`, smil);
      files[`EPUB/audio/${name}.${poem.reading.extension}`] = [poem.reading.bytes, { level: 0 }];
      overlays.set(index, poem.reading.duration);
    }
    onPoem(index + 1);
  });
  add("package.opf", packageDocument(content, cover, overlays));
  return zipSync(files, { level: 6 });
}
