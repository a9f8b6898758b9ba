import { stanzaLines } from "../../common/stanza.ts";
import { copyText } from "./clipboard.ts";
import { downloadBlob, renderStanzaImage, stanzaImageFileName } from "./stanza-image.ts";
import { notify, notifyError } from "./toast.ts";

/**
 * What the stanza viewer's Share, Save image, Copy link and Copy Stanza do
 * (docs/product/interactions.md, Sharing and saving a stanza). Only a press needs it, so the
 * viewer imports it as the pointer or focus reaches the stanza actions, not with the page
 * (docs/decisions/030-echo-counts-without-the-contract.md).
 */
export interface SharedStanza {
  poemTitle: string;
  siteName: string;
  /** The stanza's text as the poem stores it. */
  stanza: string;
  /** 1 for the first stanza. */
  number: number;
  /** The stanza's share address, /share/poem/{slug}?s={index} on the public URL. */
  link: string;
}

export async function copyStanzaLink({ link }: SharedStanza) {
  if (await copyText(link)) notify("Link copied");
  else notifyError("Copy failed", "Unable to copy link to clipboard");
}

/** The system's share sheet where there is one; the link copied where there is none. */
export async function shareStanza(shared: SharedStanza) {
  if (typeof navigator.share !== "function") return copyStanzaLink(shared);
  try {
    await navigator.share({
      title: `"${shared.poemTitle}" — ${shared.siteName}`,
      text: `${stanzaLines(shared.stanza).join("\n")}\n\n— ${shared.poemTitle}`,
      url: shared.link,
    });
  } catch (error) {
    if ((error as Error).name !== "AbortError") await copyStanzaLink(shared);
  }
}

export async function saveStanzaImage({ poemTitle, siteName, stanza, number }: SharedStanza) {
  try {
    const blob = await renderStanzaImage(stanzaLines(stanza), poemTitle, siteName);
    downloadBlob(blob, stanzaImageFileName(poemTitle, number));
    notify("Image saved", "Stanza image has been downloaded");
  } catch {
    notifyError("Export failed", "Could not create stanza image. Please try again.");
  }
}

export async function copyStanza({ stanza }: SharedStanza) {
  if (await copyText(stanzaLines(stanza).join("\n"))) notify("Stanza copied");
  else notifyError("Copy failed", "Unable to copy the stanza to clipboard");
}
