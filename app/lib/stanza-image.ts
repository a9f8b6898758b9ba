import { STANZA_IMAGE } from "../../common/constants.ts";
import { fitStanza, type StanzaFrame } from "../../common/stanza-fit.ts";

/**
 * 'the-kitchen-table-stanza-2.png', or 'stanza-2.png' without a title
 * (docs/product/interactions.md, Sharing and saving a stanza).
 */
export function stanzaImageFileName(title: string | undefined, stanzaNumber: number): string {
  const base = title?.trim() ? `${title.trim().toLowerCase().replace(/\s+/g, "-")}-` : "";
  return `${base}stanza-${stanzaNumber}.png`;
}

const PADDING = 44;
/** The title and the site name sit below this line; the stanza is centred above it. */
const FOOTER_TOP = 316;

const STANZA_FRAME: StanzaFrame = {
  width: STANZA_IMAGE.width - 2 * PADDING,
  height: FOOTER_TOP - PADDING,
  lineHeight: 1.5,
  largestFontSize: 22,
  smallestFontSize: 12,
  fontSizeStep: 1,
};

const stanzaFont = (fontSize: number) => `${fontSize}px Georgia, serif`;

/**
 * Draws the stanza with the poem title and the site name on a 600x400 canvas at scale 2 and
 * resolves with a PNG (quality 1). The stanza is set by the share card's rule
 * (common/stanza-fit.ts), measured by the canvas that draws it.
 */
export async function renderStanzaImage(
  lines: string[],
  title: string,
  siteName: string,
): Promise<Blob> {
  const { width, height, scale } = STANZA_IMAGE;
  const canvas = document.createElement("canvas");
  canvas.width = width * scale;
  canvas.height = height * scale;
  const context = canvas.getContext("2d");
  if (!context) throw new Error("no 2d canvas");
  context.scale(scale, scale);
  context.fillStyle = "#fbf8f3";
  context.fillRect(0, 0, width, height);
  context.fillStyle = "#9f4314";
  context.fillRect(0, 0, 6, height);

  const { fontSize, rows } = fitStanza(lines, STANZA_FRAME, (text, size) => {
    context.font = stanzaFont(size);
    return context.measureText(text).width;
  });
  const rowHeight = fontSize * STANZA_FRAME.lineHeight;
  const top = PADDING + (STANZA_FRAME.height - rows.length * rowHeight) / 2;
  context.font = stanzaFont(fontSize);
  context.fillStyle = "#1c1917";
  // Letters centred in their rows, so the space between rows is shared above and below.
  context.textBaseline = "middle";
  rows.forEach((row, index) => {
    context.fillText(row.text, PADDING + row.indent, top + (index + 0.5) * rowHeight);
  });

  context.textBaseline = "top";
  context.font = "italic 15px Georgia, serif";
  context.fillStyle = "#44403c";
  context.fillText(title ? `— ${title}` : "", PADDING, height - 62);
  context.font = "13px Georgia, serif";
  context.fillStyle = "#9f4314";
  context.fillText(siteName, PADDING, height - 38);

  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error("toBlob failed"))),
      "image/png",
      1,
    ),
  );
}

export function downloadBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
