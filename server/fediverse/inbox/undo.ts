import {
  Activity,
  Announce,
  type Object as APObject,
  Follow,
  Like,
  type Undo,
} from "@fedify/vocab";
import { removeFollowers } from "../followers.ts";
import type { Context, InboxDeps } from "./context.ts";

/**
 * Undo takes back a Follow, a Like or a boost (Announce) of the same actor. When the undone
 * activity cannot be read back (its server names it by id only and no longer serves it), its id
 * is all there is: each kind is asked to forget what that id made.
 */
export function onUndo(deps: InboxDeps) {
  return async (ctx: Context, undo: Undo) => {
    const actorId = undo.actorId;
    if (!actorId) return;
    let undone: APObject | null = null;
    try {
      undone = await undo.getObject(ctx);
    } catch {
      undone = null;
    }
    const undoneActor = undone instanceof Activity ? undone.actorId : null;
    if (undoneActor && undoneActor.href !== actorId.href) {
      // Only an activity's own actor may take it back.
      return;
    }
    const activityId = undone?.id?.href ?? undo.objectId?.href ?? null;
    if (undone instanceof Follow) {
      await removeFollowers(deps.db, [actorId.href]);
    } else if (undone instanceof Like) {
      await deps.reactions.undoLike(actorId.href, {
        activityId,
        object: undone.objectId?.href ?? null,
      });
    } else if (undone instanceof Announce) {
      await deps.reactions.undoAnnounce(actorId.href, {
        activityId,
        object: undone.objectId?.href ?? null,
      });
    } else if (undone === null && activityId) {
      await deps.reactions.undoLike(actorId.href, { activityId, object: null });
      await deps.reactions.undoAnnounce(actorId.href, { activityId, object: null });
    }
  };
}
