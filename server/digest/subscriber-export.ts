import { asc } from "drizzle-orm";
import type { AdminActor } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { subscriptions } from "../db/schema.ts";
import { activeSubscribers } from "../db/visibility.ts";

/** Spreadsheets run cells that start with these: prefix them so they stay text. */
function csvCell(value: string): string {
  const neutral = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(neutral) ? `"${neutral.replaceAll('"', '""')}"` : neutral;
}

/** The list taken away by the poet, as a spreadsheet reads it. */
export function subscriberExport(deps: ServiceDeps) {
  const { db } = deps;
  return {
    /** Verified, still-subscribed addresses as CSV, formula cells neutralised (admins only). */
    async exportCsv(_admin: AdminActor): Promise<string> {
      const rows = await db
        .select({
          email: subscriptions.email,
          verifiedAt: subscriptions.verifiedAt,
          createdAt: subscriptions.createdAt,
        })
        .from(subscriptions)
        .where(activeSubscribers)
        .orderBy(asc(subscriptions.createdAt));
      const lines = rows.map((row) =>
        [row.email, row.verifiedAt?.toISOString() ?? "", row.createdAt.toISOString()]
          .map(csvCell)
          .join(","),
      );
      return `${["email,verifiedAt,createdAt", ...lines].join("\r\n")}\r\n`;
    },
  };
}
