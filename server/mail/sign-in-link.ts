import { escapeMarkup } from "../escape.ts";
import { emailLayout, type MailSite, textSignature } from "./html.ts";
import type { MailMessage } from "./transport.ts";

export function signInLinkMessage(site: MailSite, to: string, url: string): MailMessage {
  const subject = `Your sign-in link for ${site.name}`;
  const text = [
    `Open this link to sign in to ${site.name}:`,
    "",
    url,
    "",
    "The link works once and expires in 15 minutes.",
    "If you did not ask for it, you can ignore this email.",
    ...textSignature(site),
  ].join("\n");
  const html = emailLayout(
    site,
    `<p style="font-size:16px;line-height:1.6">Open this link to sign in to ${escapeMarkup(site.name)}.</p>
<p style="margin:28px 0"><a href="${escapeMarkup(url)}" style="background:#9f4314;color:#fff;padding:12px 22px;border-radius:999px;text-decoration:none">Sign in</a></p>
<p style="font-size:14px;color:#57534e;line-height:1.6">The link works once and expires in 15 minutes. If you did not ask for it, you can ignore this email.</p>`,
  );
  return { to, subject, text, html, fromName: site.name };
}
