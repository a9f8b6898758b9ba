import { z } from "zod/mini";
import { dateTime } from "./answer.ts";

/**
 * The admin's fediverse page (docs/product/fediverse.md): who follows the site's actor, and what
 * the poet blocked.
 */

export const fediverseFollower = z.object({
  actorUrl: z.string(),
  /** `@name@server`. */
  handle: z.string(),
  name: z.nullable(z.string()),
  server: z.string(),
  profileUrl: z.nullable(z.string()),
  since: dateTime,
});
export type FediverseFollower = z.output<typeof fediverseFollower>;

export const FEDIVERSE_FOLLOWERS_PAGE_SIZE = 100;

export const fediverseFollowersQuery = z.object({
  offset: z.optional(
    z.pipe(
      z.string(),
      z.transform((value) => (/^\d{1,9}$/.test(value) ? Number(value) : 0)),
    ),
  ),
});

export const fediverseFollowers = z.object({
  /** How many follow, in all. */
  total: z.int(),
  /** One page, newest first. */
  followers: z.array(fediverseFollower),
});
export type FediverseFollowers = z.output<typeof fediverseFollowers>;

export const fediverseBlock = z.object({
  id: z.int(),
  kind: z.enum(["server", "account"]),
  /** A server's host, or an account's actor id. */
  value: z.string(),
  createdAt: dateTime,
});
export type FediverseBlock = z.output<typeof fediverseBlock>;

export const BLOCK_TARGET_MESSAGE =
  "Enter a server (example.social), an account (@name@example.social) or an account's address";

export const fediverseBlockInput = z.object({
  /** A server's domain, `@name@server`, or an account's address. */
  target: z
    .string(BLOCK_TARGET_MESSAGE)
    .check(
      z.trim(),
      z.minLength(1, BLOCK_TARGET_MESSAGE),
      z.maxLength(2_000, "Please keep this under 2000 characters"),
    ),
});
export type FediverseBlockInput = z.output<typeof fediverseBlockInput>;
