import { escapeMarkup } from "../escape.ts";
import { emailLayout, type MailSite, textSignature } from "./html.ts";
import type { MailMessage } from "./transport.ts";

/** The one email a contributor gets when the poet publishes their submission as a guest voice. */
export function guestVoicePublishedMessage(
  site: MailSite,
  to: string,
  poemTitle: string,
  voiceUrl: URL,
): MailMessage {
  const text = [
    `Your poem "${poemTitle}" is now published as a guest voice on ${site.name}:`,
    "",
    voiceUrl.toString(),
    "",
    "Thank you for sharing your ember.",
    ...textSignature(site),
  ].join("\n");
  const html = emailLayout(
    site,
    `<p style="font-size:16px;line-height:1.6">Your poem “${escapeMarkup(poemTitle)}” is now published as a guest voice on ${escapeMarkup(site.name)}.</p>
<p style="margin:28px 0"><a href="${escapeMarkup(voiceUrl.toString())}" style="background:#9f4314;color:#fff;padding:12px 22px;border-radius:999px;text-decoration:none">Read it on the site</a></p>
<p style="font-size:14px;color:#57534e;line-height:1.6">Thank you for sharing your ember.</p>`,
  );
  return {
    to,
    subject: `Your poem is published on ${site.name}`,
    text,
    html,
    fromName: site.name,
  };
}
