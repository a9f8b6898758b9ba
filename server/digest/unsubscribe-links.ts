import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq } from "drizzle-orm";
import * as pages from "../../common/pages.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { subscriptions } from "../db/schema.ts";

/** An address with its local part hidden but for its first and last letters. */
function maskAddress(email: string): string {
  const at = email.lastIndexOf("@");
  const local = email.slice(0, at);
  const ends = local.length > 2 ? `${local[0]}•••${local.at(-1)}` : `${local[0] ?? ""}•••`;
  return `${ends}${email.slice(at)}`;
}

/** Unsubscribe links signed per subscriber, and the subscription a signed one ends. */
export function unsubscribeLinks(deps: ServiceDeps & { secret: string }) {
  const { db, config } = deps;
  const sign = (id: number) =>
    createHmac("sha256", deps.secret).update(`unsubscribe:${id}`).digest("base64url");
  const unsubscribeUrl = (id: number) => {
    const url = new URL(pages.unsubscribe, config.publicUrl);
    url.searchParams.set("s", String(id));
    url.searchParams.set("sig", sign(id));
    return url;
  };

  return {
    unsubscribeUrl,

    isValidUnsubscribe(id: number, signature: string): boolean {
      const expected = Buffer.from(sign(id));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },

    /**
     * The address a signed unsubscribe link stands for, masked (`r•••r@example.com`): enough for
     * its reader to know it, not for whoever the link was forwarded to. Undefined when the
     * signature does not match or the subscription is gone.
     */
    async maskedAddress(id: number, signature: string): Promise<string | undefined> {
      if (!this.isValidUnsubscribe(id, signature)) return undefined;
      const [row] = await db
        .select({ email: subscriptions.email })
        .from(subscriptions)
        .where(eq(subscriptions.id, id));
      return row && maskAddress(row.email);
    },

    /** Ends a subscription by its signed link; false when the signature does not match. */
    async unsubscribe(id: number, signature: string): Promise<boolean> {
      if (!this.isValidUnsubscribe(id, signature)) return false;
      await db
        .update(subscriptions)
        .set({ unsubscribed: true, unsubscribedAt: deps.now() })
        .where(and(eq(subscriptions.id, id), eq(subscriptions.unsubscribed, false)));
      return true;
    },
  };
}
