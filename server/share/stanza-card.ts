import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { renderAsync } from "@resvg/resvg-js";
import type { ReactNode } from "react";
import satori, { type Font } from "satori";

/** The Open Graph image size every platform accepts (1.91:1). */
export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

const PAPER = "#fbf8f3";
const ACCENT = "#9f4314";
const INK = "#2a211c";
const MUTED = "#6b5d52";
const FONT_NAME = "Lora";
/** Lora ships one file per script subset and style (@fontsource/lora). */
const FONT_SUBSETS = ["latin", "latin-ext", "cyrillic", "cyrillic-ext", "vietnamese"];
/** Each subset is a family of its own, named in order so a glyph missing from one comes from the next. */
const FONT_FAMILY = FONT_SUBSETS.map((subset) => `"${FONT_NAME} ${subset}"`).join(", ");

const PADDING_X = 88;
const PADDING_Y = 64;
/** Room the stanza may use once the site name (top) and the title (bottom) have theirs. */
const STANZA_WIDTH = CARD_WIDTH - 2 * PADDING_X;
const STANZA_HEIGHT = 330;
const LINE_HEIGHT = 1.38;
const MAX_FONT_SIZE = 60;
const MIN_FONT_SIZE = 24;
/** Mean advance of Lora's letters and spaces in em, rounded up so estimates err on the safe side. */
const CHAR_WIDTH_EM = 0.48;

export interface StanzaCard {
  /** The stanza's lines, already split (common/stanza.ts stanzaLines). */
  lines: string[];
  title: string;
  siteName: string;
}

/** Satori's element shape, written without JSX: `{type, props: {style, children}}`. */
interface CardNode {
  type: string;
  props: { style?: Record<string, string | number>; children?: CardNode | string | CardNode[] };
}

function node(
  style: Record<string, string | number>,
  children: CardNode | string | CardNode[],
): CardNode {
  return { type: "div", props: { style, children } };
}

/** How many rows a line takes at a font size once it wraps to the stanza's width. */
function rowsFor(line: string, fontSize: number): number {
  const perRow = Math.max(1, Math.floor(STANZA_WIDTH / (fontSize * CHAR_WIDTH_EM)));
  return Math.max(1, Math.ceil(line.length / perRow));
}

function rowsAt(lines: string[], fontSize: number): number {
  return lines.reduce((sum, line) => sum + rowsFor(line, fontSize), 0);
}

/**
 * The largest font size (by steps of 2px) at which the stanza's wrapped rows fit the stanza box,
 * and the lines to draw at it: at the smallest size a stanza still too long is cut, the last
 * line kept ending in an ellipsis, so the card never overflows.
 */
export function fitStanza(lines: string[]): { fontSize: number; lines: string[] } {
  for (let size = MAX_FONT_SIZE; size >= MIN_FONT_SIZE; size -= 2) {
    if (rowsAt(lines, size) * size * LINE_HEIGHT <= STANZA_HEIGHT) return { fontSize: size, lines };
  }
  const fontSize = MIN_FONT_SIZE;
  const maxRows = Math.floor(STANZA_HEIGHT / (fontSize * LINE_HEIGHT));
  const perRow = Math.max(1, Math.floor(STANZA_WIDTH / (fontSize * CHAR_WIDTH_EM)));
  const kept: string[] = [];
  let rows = 0;
  for (const line of lines) {
    const left = maxRows - rows;
    if (left <= 0) break;
    const need = rowsFor(line, fontSize);
    if (need <= left) {
      kept.push(line);
      rows += need;
      continue;
    }
    kept.push(`${line.slice(0, left * perRow - 1).trimEnd()}…`);
    rows = maxRows;
  }
  const last = kept.length - 1;
  if (kept.length < lines.length && last >= 0 && !kept[last]?.endsWith("…")) {
    kept[last] = `${kept[last]} …`;
  }
  return { fontSize, lines: kept };
}

/** The card as a satori tree. Every text is a text child, so markup in it is drawn as written. */
export function stanzaCardTree(card: StanzaCard): CardNode {
  const { fontSize, lines } = fitStanza(card.lines);
  return node(
    {
      boxSizing: "border-box",
      width: CARD_WIDTH,
      height: CARD_HEIGHT,
      display: "flex",
      flexDirection: "column",
      justifyContent: "space-between",
      padding: `${PADDING_Y}px ${PADDING_X}px`,
      backgroundColor: PAPER,
      borderTop: `12px solid ${ACCENT}`,
      fontFamily: FONT_FAMILY,
      color: INK,
    },
    [
      node(
        {
          display: "flex",
          fontSize: 26,
          letterSpacing: 3,
          textTransform: "uppercase",
          color: ACCENT,
        },
        card.siteName,
      ),
      node(
        {
          display: "flex",
          flexDirection: "column",
          justifyContent: "center",
          height: STANZA_HEIGHT,
          overflow: "hidden",
          fontSize,
          lineHeight: LINE_HEIGHT,
        },
        lines.map((line) => node({ display: "flex" }, line)),
      ),
      node({ display: "flex", alignItems: "center" }, [
        node(
          { display: "flex", width: 56, height: 3, backgroundColor: ACCENT, marginRight: 20 },
          [],
        ),
        node(
          {
            display: "block",
            flex: 1,
            fontSize: 32,
            fontStyle: "italic",
            color: MUTED,
            whiteSpace: "nowrap",
            overflow: "hidden",
            textOverflow: "ellipsis",
          },
          card.title,
        ),
      ]),
    ],
  );
}

const FONT_FILES = FONT_SUBSETS.flatMap((subset) =>
  (["normal", "italic"] as const).map((style) => ({
    name: `${FONT_NAME} ${subset}`,
    file: `lora-${subset}-400-${style}.woff`,
    style,
  })),
);

let fontsPromise: Promise<Font[]> | undefined;

/** Lora (@fontsource/lora), read from node_modules once, at the first card. */
function loadFonts(): Promise<Font[]> {
  if (!fontsPromise) {
    const require = createRequire(import.meta.url);
    fontsPromise = Promise.all(
      FONT_FILES.map(async ({ name, file, style }) => ({
        name,
        data: await readFile(require.resolve(`@fontsource/lora/files/${file}`)),
        weight: 400 as const,
        style,
      })),
    );
    fontsPromise.catch(() => {
      fontsPromise = undefined;
    });
  }
  return fontsPromise;
}

/** Renders the share card to PNG bytes: satori lays it out as SVG, resvg rasterises it. */
export async function renderStanzaCard(card: StanzaCard): Promise<Uint8Array<ArrayBuffer>> {
  const fonts = await loadFonts();
  const svg = await satori(stanzaCardTree(card) as unknown as ReactNode, {
    width: CARD_WIDTH,
    height: CARD_HEIGHT,
    fonts,
  });
  const image = await renderAsync(svg, {
    fitTo: { mode: "original" },
    font: { loadSystemFonts: false },
  });
  return new Uint8Array(image.asPng());
}
