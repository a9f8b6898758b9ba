import type { InboxContext, InboxListenerSetters } from "@fedify/fedify";
import { Announce, Create, Delete, Follow, Like, Undo, Update } from "@fedify/vocab";
import { isConnectionError } from "../../http/errors.ts";
import { onAnnounce } from "./announce.ts";
import type { InboxDeps } from "./context.ts";
import { onCreate } from "./create.ts";
import { onDelete } from "./delete.ts";
import { onFollow } from "./follow.ts";
import { onLike } from "./like.ts";
import { onUndo } from "./undo.ts";
import { onUpdate } from "./update.ts";

/** Each activity type the inbox takes, to its handler (the files beside this one). */
export function listenToActivities(inbox: InboxListenerSetters<void>, deps: InboxDeps): void {
  const { logger } = deps;
  /**
   * A handler that fails on what an activity says is the sender's problem, not a reason for a
   * 5xx: it is logged and the activity answered as received. A database away is rethrown, so
   * Fedify answers 500 and the sender tries again later.
   */
  const settled =
    <A>(handler: (ctx: InboxContext<void>, activity: A) => Promise<void>) =>
    async (ctx: InboxContext<void>, activity: A) => {
      try {
        await handler(ctx, activity);
      } catch (error) {
        if (isConnectionError(error)) throw error;
        logger.warn({ err: error }, "fediverse activity could not be handled");
      }
    };
  inbox
    .on(Follow, settled(onFollow(deps)))
    .on(Undo, settled(onUndo(deps)))
    .on(Create, settled(onCreate(deps)))
    .on(Update, settled(onUpdate(deps)))
    .on(Delete, settled(onDelete(deps)))
    .on(Like, settled(onLike(deps)))
    .on(Announce, settled(onAnnounce(deps)))
    .onError((_ctx, error) => {
      logger.warn({ err: error }, "fediverse inbox activity failed");
    });
}
