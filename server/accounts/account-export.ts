import { desc, eq } from "drizzle-orm";
import type { AccountExport } from "../../common/schemas/account.ts";
import { stanzaLines } from "../../common/stanza.ts";
import type { Actor } from "../core/actor.ts";
import { echoes, journalEntries, poems, subscriptions, whispers } from "../db/schema.ts";
import { readAccount, requireUser } from "./account-details.ts";
import type { ReaderAccountDeps } from "./reader-accounts.ts";

/** A stored stanza key as the export shows it: '' (a whole-poem echo) is null. */
const stanzaOf = (key: string) => (key === "" ? null : Number(key));

/** The reader's data, for them to download from /account. */
export function accountExport({ db, now }: Pick<ReaderAccountDeps, "db" | "now">) {
  return {
    /**
     * Everything the site keeps of the reader: their account, journal, whispers, echoes and their
     * digest subscription (by their address; null when they never subscribed).
     */
    async exportAccount(actor: Actor): Promise<AccountExport> {
      const user = requireUser(actor);
      const account = await readAccount(db, user.id);
      const place = { poemSlug: poems.slug, poemTitle: poems.title, stanzas: poems.stanzas };
      const [journal, ownWhispers, ownEchoes, [subscription]] = await Promise.all([
        db
          .select({
            ...place,
            stanza: journalEntries.stanzaIndex,
            createdAt: journalEntries.createdAt,
          })
          .from(journalEntries)
          .innerJoin(poems, eq(poems.id, journalEntries.poemId))
          .where(eq(journalEntries.userId, user.id))
          .orderBy(desc(journalEntries.createdAt), desc(journalEntries.id)),
        db
          .select({
            ...place,
            stanza: whispers.stanzaIndex,
            createdAt: whispers.createdAt,
            text: whispers.text,
            isApproved: whispers.isApproved,
          })
          .from(whispers)
          .innerJoin(poems, eq(poems.id, whispers.poemId))
          .where(eq(whispers.userId, user.id))
          .orderBy(desc(whispers.createdAt), desc(whispers.id)),
        db
          .select({ ...place, stanza: echoes.stanzaIndex, createdAt: echoes.createdAt })
          .from(echoes)
          .innerJoin(poems, eq(poems.id, echoes.poemId))
          .where(eq(echoes.userId, user.id))
          .orderBy(desc(echoes.createdAt), desc(echoes.id)),
        db
          .select({
            email: subscriptions.email,
            subscribedAt: subscriptions.createdAt,
            confirmed: subscriptions.verified,
            confirmedAt: subscriptions.verifiedAt,
            unsubscribed: subscriptions.unsubscribed,
            unsubscribedAt: subscriptions.unsubscribedAt,
            consentSource: subscriptions.consentSource,
          })
          .from(subscriptions)
          .where(eq(subscriptions.email, account.email)),
      ]);
      const withStanza = <Row extends { stanza: string; stanzas: string[] }>({
        stanza,
        stanzas,
        ...row
      }: Row) => {
        const index = stanzaOf(stanza);
        const words = index === null ? undefined : stanzas[index];
        return {
          ...row,
          stanza: index === null ? null : index + 1,
          // Its lines one to a line, as the reader read them.
          stanzaText: words === undefined ? null : stanzaLines(words).join("\n"),
        };
      };
      return {
        exportedAt: now(),
        account,
        journal: journal.map(withStanza),
        whispers: ownWhispers.map(withStanza),
        echoes: ownEchoes.map(withStanza),
        digestSubscription: subscription ?? null,
      };
    },
  };
}
