import type { Delete } from "@fedify/vocab";
import { removeFollowers } from "../followers.ts";
import type { Context, InboxDeps } from "./context.ts";

/**
 * A deleted reply takes its whisper with it. A deleted account (the actor deleting itself) stops
 * following. Only the sender's own things are touched: the reactions service matches the note's id
 * with the actor that wrote it.
 */
export function onDelete(deps: InboxDeps) {
  return async (_ctx: Context, deletion: Delete) => {
    const actorId = deletion.actorId;
    const objectId = deletion.objectId;
    if (!actorId || !objectId) return;
    if (objectId.href === actorId.href) {
      await removeFollowers(deps.db, [actorId.href]);
      return;
    }
    await deps.reactions.deleteReply(actorId.href, objectId.href);
  };
}
