import { z } from "zod/mini";
import { dateTime } from "./answer.ts";

/**
 * What followers were sent of one poem, and how far it got (GET
 * /api/admin/fediverse/deliveries, docs/product/fediverse-delivery.md): deliveries to inboxes
 * counted by state across every activity about the poem, and the latest activity.
 */
export const poemDeliveryState = z.object({
  poemId: z.int(),
  /** Null once the poem has been purged; its Delete is still counted. */
  title: z.nullable(z.string()),
  slug: z.nullable(z.string()),
  sent: z.int(),
  /** Waiting for a first attempt or for a retry after a temporary failure. */
  retrying: z.int(),
  failed: z.int(),
  lastActivity: z.object({
    type: z.enum(["Create", "Update", "Delete"]),
    at: dateTime,
  }),
});
export type PoemDeliveryState = z.output<typeof poemDeliveryState>;
