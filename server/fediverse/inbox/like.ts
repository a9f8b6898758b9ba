import type { Like } from "@fedify/vocab";
import { readPoemObjectUrl } from "../object-urls.ts";
import { type Context, type InboxDeps, senderOf } from "./context.ts";

/** A like of a poem or of one of its stanzas counts as an echo (docs/product/fediverse.md). */
export function onLike(deps: InboxDeps) {
  return async (ctx: Context, like: Like) => {
    const object = like.objectId;
    if (!like.id || !object || !readPoemObjectUrl(deps.publicUrl, object.href)) return;
    const sender = await senderOf(deps, ctx, like);
    if (!sender) return;
    await deps.reactions.receiveLike(sender.author, {
      activityId: like.id.href,
      object: object.href,
    });
  };
}
