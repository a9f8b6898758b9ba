import type { Announce } from "@fedify/vocab";
import { readPoemObjectUrl } from "../object-urls.ts";
import { type Context, type InboxDeps, senderOf } from "./context.ts";

/** A boost of a poem or a stanza is counted for the poet, per poem (docs/product/fediverse.md). */
export function onAnnounce(deps: InboxDeps) {
  return async (ctx: Context, announce: Announce) => {
    const object = announce.objectId;
    if (!announce.id || !object || !readPoemObjectUrl(deps.publicUrl, object.href)) return;
    const sender = await senderOf(deps, ctx, announce);
    if (!sender) return;
    await deps.reactions.receiveAnnounce(sender.author, {
      activityId: announce.id.href,
      object: object.href,
    });
  };
}
