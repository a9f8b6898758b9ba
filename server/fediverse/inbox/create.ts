import { type Create, Note } from "@fedify/vocab";
import { readPoemObjectUrl } from "../object-urls.ts";
import { type Context, type InboxDeps, senderOf } from "./context.ts";

/**
 * A Note that answers a poem or one of its stanzas becomes a whisper waiting for the poet
 * (docs/product/fediverse.md, Replies). A reply to anything else, another reply included, is not
 * the site's: it is ignored. So is a Note its sender did not write.
 */
export function onCreate(deps: InboxDeps) {
  return async (ctx: Context, create: Create) => {
    const note = await create.getObject(ctx).catch(() => null);
    if (!(note instanceof Note) || !note.id) return;
    const inReplyTo = note.replyTargetId;
    if (!inReplyTo || !readPoemObjectUrl(deps.publicUrl, inReplyTo.href)) return;
    if (note.attributionId?.href !== create.actorId?.href) return;
    const sender = await senderOf(deps, ctx, create);
    if (!sender) return;
    const url = note.url instanceof URL ? note.url.href : (note.url?.href?.href ?? null);
    await deps.reactions.receiveReply(sender.author, {
      noteId: note.id.href,
      url,
      inReplyTo: inReplyTo.href,
      contentHtml: note.content?.toString() ?? "",
      published: note.published ? new Date(note.published.epochMilliseconds) : null,
    });
  };
}
