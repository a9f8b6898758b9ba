import { createRequire } from "node:module";
import { inflateSync } from "node:zlib";
import type { MeasureText } from "../../common/stanza-fit.ts";

/** The part of harfbuzzjs (which ships no types) that measuring uses. */
interface HarfBuzz {
  createBlob(data: Uint8Array): object;
  createFace(blob: object, index: number): { upem: number; collectUnicodes(): Uint32Array };
  createFont(face: object): { setScale(xScale: number, yScale: number): void };
  createBuffer(): {
    addText(text: string): void;
    guessSegmentProperties(): void;
    getGlyphPositions(): { x_advance: number }[];
    destroy(): void;
  };
  shape(font: object, buffer: object): void;
}

// Required, not imported: its module.exports is a promise, and under Vitest an ES import of it
// fails ('Promise.prototype.then called on incompatible receiver [object Module]').
const harfbuzz: Promise<HarfBuzz> = createRequire(import.meta.url)("harfbuzzjs");

/** Widths at 1px kept between measurements: a stanza's rows are measured again at every size. */
const CACHED_WIDTHS = 20_000;

/**
 * A text measure that agrees with what satori draws: satori shapes text with HarfBuzz
 * (harfbuzzjs, pinned in package.json to satori's version), each character in the first of the
 * fonts that has it, and sums the advances. So does this, from the same font files.
 */
export async function createTextMeasure(fontFiles: Uint8Array[]): Promise<MeasureText> {
  const hb = await harfbuzz;
  const fonts = fontFiles.map((file) => {
    const blob = hb.createBlob(sfntFromWoff(file));
    const face = hb.createFace(blob, 0);
    const font = hb.createFont(face);
    font.setScale(face.upem, face.upem);
    const characters = new Set(face.collectUnicodes());
    return { font, unitsPerEm: face.upem, characters };
  });
  type CardFont = (typeof fonts)[number];

  function fontFor(character: string, current: CardFont | undefined): CardFont | undefined {
    const codePoint = character.codePointAt(0) ?? 0;
    // Like satori, a space stays in the font of the text around it when that font has one.
    if (current && /^\s$/.test(character) && current.characters.has(codePoint)) return current;
    return fonts.find((font) => font.characters.has(codePoint)) ?? fonts[0];
  }

  function shapedWidth(text: string, { font, unitsPerEm }: CardFont): number {
    const buffer = hb.createBuffer();
    try {
      buffer.addText(text);
      buffer.guessSegmentProperties();
      hb.shape(font, buffer);
      const advance = buffer.getGlyphPositions().reduce((sum, glyph) => sum + glyph.x_advance, 0);
      return advance / unitsPerEm;
    } finally {
      buffer.destroy();
    }
  }

  /** The text cut into runs of one font each, as satori cuts it before shaping. */
  function widthAt1px(text: string): number {
    let width = 0;
    let run = "";
    let runFont: CardFont | undefined;
    for (const character of text) {
      const font = fontFor(character, runFont);
      if (runFont && font !== runFont) {
        width += shapedWidth(run, runFont);
        run = "";
      }
      run += character;
      runFont = font;
    }
    return runFont ? width + shapedWidth(run, runFont) : width;
  }

  const widths = new Map<string, number>();
  return (text, fontSize) => {
    let width = widths.get(text);
    if (width === undefined) {
      width = widthAt1px(text);
      if (widths.size >= CACHED_WIDTHS) widths.clear();
      widths.set(text, width);
    }
    return width * fontSize;
  };
}

/**
 * The sfnt (TrueType/OpenType) font inside a WOFF 1.0 file, which HarfBuzz cannot read itself:
 * the same tables, each inflated when the WOFF stored it compressed.
 */
function sfntFromWoff(woff: Uint8Array): Uint8Array {
  const source = new DataView(woff.buffer, woff.byteOffset, woff.byteLength);
  const tableCount = source.getUint16(12);
  const sfnt = new Uint8Array(source.getUint32(16));
  const target = new DataView(sfnt.buffer);
  const searchPower = 2 ** Math.floor(Math.log2(tableCount));
  target.setUint32(0, source.getUint32(4));
  target.setUint16(4, tableCount);
  target.setUint16(6, searchPower * 16);
  target.setUint16(8, Math.log2(searchPower));
  target.setUint16(10, tableCount * 16 - searchPower * 16);
  let offset = 12 + tableCount * 16;
  for (let table = 0; table < tableCount; table++) {
    const entry = 44 + table * 20;
    const dataOffset = source.getUint32(entry + 4);
    const storedLength = source.getUint32(entry + 8);
    const length = source.getUint32(entry + 12);
    const stored = woff.subarray(dataOffset, dataOffset + storedLength);
    sfnt.set(storedLength < length ? inflateSync(stored) : stored, offset);
    const record = 12 + table * 16;
    target.setUint32(record, source.getUint32(entry));
    target.setUint32(record + 4, source.getUint32(entry + 16));
    target.setUint32(record + 8, offset);
    target.setUint32(record + 12, length);
    // sfnt tables start on 4-byte boundaries.
    offset += (length + 3) & ~3;
  }
  return sfnt;
}
