import { Accept, type Follow } from "@fedify/vocab";
import { addFollower } from "../followers.ts";
import { type Context, type InboxDeps, senderOf } from "./context.ts";

/**
 * A Follow of the site's actor is accepted at once (docs/product/fediverse.md, Following): the
 * follower is kept, and a signed Accept goes to their inbox through the queue.
 */
export function onFollow(deps: InboxDeps) {
  return async (ctx: Context, follow: Follow) => {
    const target = follow.objectId ? ctx.parseUri(follow.objectId) : null;
    if (target?.type !== "actor" || target.identifier !== deps.handle) return;
    const sender = await senderOf(deps, ctx, follow);
    if (!sender) return;
    await addFollower(deps.db, sender.author.actorUrl, follow.id?.href ?? null);
    await deps.onFollower?.();
    const actorUri = ctx.getActorUri(deps.handle);
    await ctx.sendActivity(
      { identifier: deps.handle },
      sender.recipient,
      new Accept({
        id: new URL(`#accepts/${crypto.randomUUID()}`, actorUri),
        actor: actorUri,
        object: follow,
      }),
    );
  };
}
