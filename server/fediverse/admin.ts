import { isActor } from "@fedify/vocab";
import { eq, or } from "drizzle-orm";
import {
  BLOCK_TARGET_MESSAGE,
  FEDIVERSE_FOLLOWERS_PAGE_SIZE,
  type FediverseBlock,
  type FediverseFollowers,
} from "../../common/schemas/fediverse.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { notFound, ServiceError } from "../core/errors.ts";
import { remoteAccounts } from "../db/schema.ts";
import { addBlock, listBlocks, removeBlock } from "./blocks.ts";
import type { Fediverse } from "./federation.ts";
import {
  followerCount,
  listFollowers,
  removeFollowers,
  removeFollowersOnServer,
} from "./followers.ts";
import type { InboxReactions } from "./inbox/context.ts";

const HANDLE = /^@?([^@\s/]+)@([a-z0-9.-]+(?::\d{1,5})?)$/i;
const DOMAIN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/i;

/**
 * The admin's fediverse page (docs/product/fediverse.md, In the admin): the followers, and the
 * blocks. A block takes effect at once and everywhere: the blocked server's or account's
 * followers are removed, its whispers hidden, and every later activity of it refused.
 */
export function createFediverseAdminService({
  db,
  reactions,
  fediverse,
}: ServiceDeps & { reactions: InboxReactions; fediverse: Fediverse }) {
  const badTarget = () =>
    new ServiceError(400, BLOCK_TARGET_MESSAGE, { target: [BLOCK_TARGET_MESSAGE] });

  /** The actor id an account block names: one the site knows, or one looked up by WebFinger. */
  async function actorIdOf(target: string): Promise<string> {
    const handle = HANDLE.exec(target);
    const known = await db
      .select({ id: remoteAccounts.actorUrl })
      .from(remoteAccounts)
      .where(
        handle
          ? eq(remoteAccounts.handle, `@${handle[1]}@${handle[2]}`)
          : or(eq(remoteAccounts.actorUrl, target), eq(remoteAccounts.profileUrl, target)),
      )
      .limit(1);
    if (known[0]) return known[0].id;
    const ctx = fediverse.federation.createContext(fediverse.actorUrl(), undefined);
    const found = await ctx
      .lookupObject(handle ? `@${handle[1]}@${handle[2]}` : target)
      .catch(() => null);
    if (found && isActor(found) && found.id) return found.id.href;
    // An address no server answers for now is blocked as it was given: an actor id is a URL.
    if (!handle) return new URL(target).href;
    throw new ServiceError(400, "No such account was found on that server", {
      target: ["No such account was found on that server"],
    });
  }

  return {
    async followers(_admin: AdminActor, offset = 0): Promise<FediverseFollowers> {
      const [total, rows] = await Promise.all([
        followerCount(db),
        listFollowers(db, { limit: FEDIVERSE_FOLLOWERS_PAGE_SIZE, offset }),
      ]);
      return {
        total,
        followers: rows.map((row) => ({
          actorUrl: row.actorId,
          handle: row.handle,
          name: row.name,
          server: row.server,
          profileUrl: row.profileUrl,
          since: row.since,
        })),
      };
    },

    async blocks(_admin: AdminActor): Promise<FediverseBlock[]> {
      return listBlocks(db);
    },

    /** Blocks a server (a domain) or an account (`@name@server` or its address). */
    async block(_admin: AdminActor, target: string): Promise<FediverseBlock> {
      const given = target.trim();
      if (/^https?:\/\//i.test(given)) {
        try {
          new URL(given);
        } catch {
          throw badTarget();
        }
      } else if (!HANDLE.test(given) && !DOMAIN.test(given)) {
        throw badTarget();
      }
      if (DOMAIN.test(given) && !HANDLE.test(given)) {
        const server = given.toLowerCase();
        const block = await addBlock(db, "server", server);
        await removeFollowersOnServer(db, server);
        await reactions.hideWhispersOf({ server });
        return block;
      }
      const actorUrl = await actorIdOf(given);
      const block = await addBlock(db, "account", actorUrl);
      await removeFollowers(db, [actorUrl]);
      await reactions.hideWhispersOf({ actorUrl });
      return block;
    },

    async unblock(_admin: AdminActor, id: number): Promise<void> {
      if (!(await removeBlock(db, id))) throw notFound("Block not found");
    },
  };
}

export type FediverseAdminService = ReturnType<typeof createFediverseAdminService>;
