import { escapeMarkup } from "../escape.ts";
import { emailLayout } from "./html.ts";
import type { MailMessage } from "./transport.ts";

export function signInLinkMessage(siteName: string, to: string, url: string): MailMessage {
  const subject = `Your sign-in link for ${siteName}`;
  const text = [
    `Open this link to sign in to ${siteName}:`,
    "",
    url,
    "",
    "The link works once and expires in 15 minutes.",
    "If you did not ask for it, you can ignore this email.",
  ].join("\n");
  const html = emailLayout(
    siteName,
    `<p style="font-size:16px;line-height:1.6">Open this link to sign in to ${escapeMarkup(siteName)}.</p>
<p style="margin:28px 0"><a href="${escapeMarkup(url)}" style="background:#9f4314;color:#fff;padding:12px 22px;border-radius:999px;text-decoration:none">Sign in</a></p>
<p style="font-size:14px;color:#57534e;line-height:1.6">The link works once and expires in 15 minutes. If you did not ask for it, you can ignore this email.</p>`,
  );
  return { to, subject, text, html };
}
