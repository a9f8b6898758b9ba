import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { renderAsync } from "@resvg/resvg-js";
import type { ReactNode } from "react";
import satori, { type Font } from "satori";
import { fitStanza, type MeasureText, type StanzaFrame } from "../../common/stanza-fit.ts";
import { createTextMeasure } from "./text-measure.ts";

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

const BORDER_TOP = 12;
const PADDING_X = 88;
const PADDING_Y = 56;
const SITE_NAME_HEIGHT = 36;
const TITLE_HEIGHT = 44;
const GAP = 28;

/** Where the stanza is drawn: between the site name (above) and the title (below). */
export const STANZA_BOX = {
  left: PADDING_X,
  top: BORDER_TOP + PADDING_Y + SITE_NAME_HEIGHT + GAP,
  width: CARD_WIDTH - 2 * PADDING_X,
  height: CARD_HEIGHT - BORDER_TOP - 2 * PADDING_Y - SITE_NAME_HEIGHT - TITLE_HEIGHT - 2 * GAP,
};

/** Down to 20px, still legible where a link preview is shown at about half size. */
const STANZA_FRAME: StanzaFrame = {
  width: STANZA_BOX.width,
  height: STANZA_BOX.height,
  // Lora's ascent and descent take 1.28em of each row; the rest is space between rows.
  lineHeight: 1.35,
  largestFontSize: 60,
  smallestFontSize: 20,
  fontSizeStep: 2,
};

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

/**
 * The card as a satori tree. Every text is a text child, so markup in it is drawn as written.
 * Each of the stanza's rows, as common/stanza-fit.ts set it, is an element of its own that never
 * wraps: satori draws the rows that were measured and cannot break them again.
 */
function stanzaCardTree(card: StanzaCard, measure: MeasureText): CardNode {
  const { fontSize, rows } = fitStanza(card.lines, STANZA_FRAME, measure);
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
      borderTop: `${BORDER_TOP}px solid ${ACCENT}`,
      fontFamily: FONT_FAMILY,
      color: INK,
    },
    [
      node(
        {
          display: "flex",
          height: SITE_NAME_HEIGHT,
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
          height: STANZA_BOX.height,
          fontSize,
          lineHeight: STANZA_FRAME.lineHeight,
        },
        rows.map((row) =>
          node({ display: "flex", paddingLeft: row.indent, whiteSpace: "pre" }, row.text),
        ),
      ),
      node({ display: "flex", alignItems: "center", height: TITLE_HEIGHT }, [
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

let fontsPromise: Promise<{ fonts: Font[]; measure: MeasureText }> | undefined;

/**
 * Lora (@fontsource/lora), read from node_modules once, at the first card, and a measure of the
 * stanza's upright text in the same files, tried in the same order as satori tries them.
 */
function loadFonts(): Promise<{ fonts: Font[]; measure: MeasureText }> {
  if (!fontsPromise) {
    const require = createRequire(import.meta.url);
    fontsPromise = Promise.all(
      FONT_FILES.map(async ({ name, file, style }) => ({
        name,
        data: await readFile(require.resolve(`@fontsource/lora/files/${file}`)),
        weight: 400 as const,
        style,
      })),
    ).then(async (fonts) => {
      const upright = fonts.filter((font) => font.style === "normal").map((font) => font.data);
      return { fonts, measure: await createTextMeasure(upright) };
    });
    fontsPromise.catch(() => {
      fontsPromise = undefined;
    });
  }
  return fontsPromise;
}

/** Renders the share card to PNG bytes: satori lays it out as SVG, resvg rasterises it. */
export async function renderStanzaCard(card: StanzaCard): Promise<Uint8Array<ArrayBuffer>> {
  const { fonts, measure } = await loadFonts();
  const svg = await satori(stanzaCardTree(card, measure) as unknown as ReactNode, {
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
