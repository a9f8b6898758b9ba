import { STANZA_IMAGE } from "../../common/constants.ts";

/** 'the-kitchen-table-stanza-2.png', or 'stanza-2.png' without a title (SPEC.md §2, Save image). */
export function stanzaImageFileName(title: string | undefined, stanzaNumber: number): string {
  const base = title?.trim() ? `${title.trim().toLowerCase().replace(/\s+/g, "-")}-` : "";
  return `${base}stanza-${stanzaNumber}.png`;
}

function wrapLine(context: CanvasRenderingContext2D, line: string, maxWidth: number): string[] {
  const words = line.split(/\s+/);
  const wrapped: string[] = [];
  let current = "";
  for (const word of words) {
    const candidate = current ? `${current} ${word}` : word;
    if (context.measureText(candidate).width > maxWidth && current) {
      wrapped.push(current);
      current = word;
    } else {
      current = candidate;
    }
  }
  if (current) wrapped.push(current);
  return wrapped;
}

/**
 * Draws the stanza with the poem title and the site name on a 600x400 canvas at scale 2 and
 * resolves with a PNG (quality 1).
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

  const padding = 44;
  let fontSize = 22;
  let wrapped: string[] = [];
  // Shrink until the stanza fits above the footer.
  for (; fontSize >= 12; fontSize -= 1) {
    context.font = `${fontSize}px Georgia, serif`;
    wrapped = lines.flatMap((line) => wrapLine(context, line, width - padding * 2));
    if (wrapped.length * fontSize * 1.5 <= height - 150) break;
  }
  context.fillStyle = "#1c1917";
  context.textBaseline = "top";
  const top = (height - 70 - wrapped.length * fontSize * 1.5) / 2;
  wrapped.forEach((line, index) => {
    context.fillText(line, padding, top + index * fontSize * 1.5);
  });

  context.font = "italic 15px Georgia, serif";
  context.fillStyle = "#44403c";
  context.fillText(title ? `— ${title}` : "", padding, height - 62);
  context.font = "13px Georgia, serif";
  context.fillStyle = "#9f4314";
  context.fillText(siteName, padding, height - 38);

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
