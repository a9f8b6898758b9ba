import { sql } from "drizzle-orm";
import * as otherRoutes from "../../common/other-routes.ts";
import type { mailRuns } from "../db/schema.ts";
import { digestEmail } from "../mail/digest.ts";
import type { MailChannel } from "../mail/transport.ts";
import type { ClaimedDelivery, DeliveryClaims } from "./delivery-claims.ts";
import type { DigestSenderDeps, DigestSenderOptions } from "./digest-sender.ts";

/** The SMTP server itself answered (with a code), as opposed to a failed connection. */
function hasSmtpAnswer(error: unknown): boolean {
  return typeof (error as { responseCode?: unknown }).responseCode === "number";
}

/** An SMTP 5xx answer: the address or message is refused for good, so retrying cannot help. */
function isPermanentFailure(error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

const errorText = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).slice(0, 500);

export type Outcome =
  | { kind: "sent" | "skipped" | "lost" }
  | { kind: "failed" | "retry"; error: string };

/**
 * One digest email to one subscriber (docs/decisions/006-digest-exactly-once.md):
 * streamed to the SMTP server whole, then the row is marked sent, and only then the final "."
 * written (MailChannel `commit`); a failure is settled by what the server did with the message.
 */
export function createDigestDelivery(
  deps: DigestSenderDeps,
  options: Pick<DigestSenderOptions, "maxAttempts" | "retryBaseMs">,
  claims: DeliveryClaims,
) {
  const { config, logger } = deps;
  const { commitSent, settleFailure, markSkippedIfUnsubscribed } = claims;

  return async function deliver(
    channel: MailChannel,
    delivery: ClaimedDelivery,
    claimToken: string,
    recipient: { email: string; name: string | null },
    run: { subject: string; content: typeof mailRuns.$inferSelect.content },
  ): Promise<Outcome> {
    const unsubscribeUrl = deps.unsubscribeUrl(delivery.subscriptionId);
    const oneClick = new URL(unsubscribeUrl);
    oneClick.pathname = otherRoutes.unsubscribe.path;
    const site = await deps.mailSite();
    const { html, text } = digestEmail(
      site,
      run.content,
      {
        publicUrl: config.publicUrl.toString(),
        unsubscribeUrl,
        linkUrl: (position) => deps.digestLinkUrl(delivery.runId, position),
      },
      recipient,
    );
    // An object, not a `let`: the commit step assigns it inside a callback.
    const commit: { state: "not yet" | "done" | "refused"; step?: Promise<void> } = {
      state: "not yet",
    };
    try {
      await channel.send(
        {
          to: recipient.email,
          subject: run.subject,
          html,
          text,
          fromName: site.name,
          messageId: `<digest-${delivery.runId}-${delivery.subscriptionId}@${config.publicUrl.hostname}>`,
          headers: {
            "List-Unsubscribe": `<${oneClick}>`,
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
          },
        },
        () => {
          commit.step = commitSent(delivery, claimToken).then((isCommitted) => {
            commit.state = isCommitted ? "done" : "refused";
            if (!isCommitted) throw new Error("delivery no longer ours to send");
          });
          return commit.step;
        },
      );
      return { kind: "sent" };
    } catch (error) {
      // The connection may fail while the commit is still on its way: know its outcome first.
      await commit.step?.catch(() => {});
      if (commit.state === "refused") {
        return {
          kind: (await markSkippedIfUnsubscribed(delivery, claimToken)) ? "skipped" : "lost",
        };
      }
      const isCommitted = commit.state === "done";
      // Marked sent and then the connection failed: the final "." may have reached the server,
      // so sending again could be a second copy. It stays sent (a copy may be lost, never doubled).
      if (isCommitted && !hasSmtpAnswer(error)) {
        logger.warn(
          { err: error, deliveryId: delivery.id },
          "digest delivery's connection failed after it was marked sent; not sent again",
        );
        return { kind: "sent" };
      }
      // The server answered the final "." with a refusal: it did not take the message after all.
      if (isPermanentFailure(error) || delivery.attempts >= options.maxAttempts) {
        await settleFailure(delivery, claimToken, isCommitted, {
          status: "failed",
          lastError: errorText(error),
        });
        return { kind: "failed", error: errorText(error) };
      }
      const delayMs = options.retryBaseMs * 2 ** (delivery.attempts - 1);
      await settleFailure(delivery, claimToken, isCommitted, {
        status: "pending",
        lastError: errorText(error),
        // A backoff, timed by the clock every instance claims by (`nextAttemptAt <= now()` and
        // the lease): the database's. The site's clock stamps when things happened (sentAt).
        nextAttemptAt: sql`now() + make_interval(secs => ${delayMs / 1000})`,
      });
      return { kind: "retry", error: errorText(error) };
    }
  };
}

export type DigestDelivery = ReturnType<typeof createDigestDelivery>;
