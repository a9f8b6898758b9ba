import { copyText } from "../lib/clipboard.ts";
import { notify, notifyError } from "../lib/toast.ts";
import { Share2 } from "./icons.ts";

/** Device share, or a copy of the quoted text and the site name (docs/product/reading.md). */
export function EmberShareButton({
  text,
  siteName,
  url,
}: {
  text: string;
  siteName: string;
  url: string;
}) {
  async function share() {
    const quoted = `"${text}"`;
    if (typeof navigator.share === "function") {
      try {
        await navigator.share({ title: siteName, text: quoted, url });
        return;
      } catch (error) {
        if ((error as Error).name === "AbortError") return;
      }
    }
    if (await copyText(`${quoted} — ${siteName}`)) notify("Copied!", "Ember copied to clipboard");
    else notifyError("Copy failed", "Unable to copy the ember to clipboard");
  }
  return (
    <button
      type="button"
      onClick={share}
      aria-label="Share ember"
      className="inline-flex items-center gap-1.5 rounded-full border border-stone-300 bg-white px-3 py-1.5 text-sm text-stone-800 hover:border-ember-700"
    >
      <Share2 aria-hidden="true" className="h-4 w-4" /> Share
    </button>
  );
}
