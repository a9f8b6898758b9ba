import { isActor, Note, type Update } from "@fedify/vocab";
import { type Context, type InboxDeps, senderOf } from "./context.ts";

/**
 * An edited reply edits its whisper; an updated actor (a new name or avatar) is read again, so
 * the site shows them as they are now.
 */
export function onUpdate(deps: InboxDeps) {
  return async (ctx: Context, update: Update) => {
    const object = await update.getObject(ctx).catch(() => null);
    if (!object?.id) return;
    if (isActor(object)) {
      if (object.id.href === update.actorId?.href) {
        await senderOf(deps, ctx, update, { isRefreshed: true });
      }
      return;
    }
    if (!(object instanceof Note) || object.attributionId?.href !== update.actorId?.href) return;
    const sender = await senderOf(deps, ctx, update);
    if (!sender) return;
    await deps.reactions.updateReply(sender.author, {
      noteId: object.id.href,
      contentHtml: object.content?.toString() ?? "",
    });
  };
}
