import * as otherRoutes from "../../common/other-routes.ts";
import { escapeMarkup } from "../escape.ts";
import { emailLayout, type MailSite, textSignature } from "./html.ts";
import type { MailMessage } from "./transport.ts";

/** The double opt-in message, with an unsubscribe link and RFC 8058 one-click headers. */
export function verificationMessage(
  site: MailSite,
  to: string,
  verifyUrl: URL,
  unsubscribeUrl: URL,
): MailMessage {
  const oneClick = new URL(unsubscribeUrl);
  oneClick.pathname = otherRoutes.unsubscribe.path;
  const text = [
    `Please confirm that you want the weekly ember digest from ${site.name}:`,
    "",
    verifyUrl.toString(),
    "",
    "If you did not ask for it, ignore this email and nothing will be sent.",
    `Unsubscribe: ${unsubscribeUrl}`,
    ...textSignature(site),
  ].join("\n");
  const html = emailLayout(
    site,
    `<p style="font-size:16px;line-height:1.6">Please confirm that you want the weekly ember digest from ${escapeMarkup(site.name)}.</p>
<p style="margin:28px 0"><a href="${escapeMarkup(verifyUrl.toString())}" style="background:#9f4314;color:#fff;padding:12px 22px;border-radius:999px;text-decoration:none">Confirm subscription</a></p>
<p style="font-size:14px;color:#57534e;line-height:1.6">If you did not ask for it, ignore this email and nothing will be sent.</p>
<p style="font-size:12px;color:#78716c"><a href="${escapeMarkup(unsubscribeUrl.toString())}" style="color:#78716c">Unsubscribe</a></p>`,
  );
  return {
    to,
    subject: `Confirm your subscription to ${site.name}`,
    fromName: site.name,
    text,
    html,
    headers: {
      "List-Unsubscribe": `<${oneClick}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}
