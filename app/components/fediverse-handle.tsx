import { copyText } from "../lib/clipboard.ts";
import { notify, notifyError } from "../lib/toast.ts";

/**
 * The site's fediverse handle on the footer's second line (docs/product/fediverse.md): pressing
 * it copies the handle, which a reader pastes into Mastodon's search to follow the poet.
 */
export function FediverseHandle({ handle }: { handle: string }) {
  async function copy() {
    if (await copyText(handle)) {
      notify("Handle copied", "Paste it into Mastodon's search and press Follow");
    } else {
      notifyError("Copy failed", `Follow ${handle} from Mastodon's search`);
    }
  }
  return (
    <button
      type="button"
      onClick={copy}
      title="Copy the handle, then search for it on Mastodon to follow"
      className="text-stone-700 underline-offset-4 hover:text-ember-700 hover:underline"
    >
      <span className="font-medium">{handle}</span>{" "}
      <span className="text-stone-600">· Follow on Mastodon</span>
    </button>
  );
}
