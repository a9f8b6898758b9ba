import { escapeMarkup } from "../escape.ts";
import type { SiteIdentity } from "../settings/site-settings.ts";

/** Whose email it is: the site's name as the poet set it, the poet's name, and the site's address. */
export interface MailSite extends SiteIdentity {
  publicUrl: string;
}

/** Who signs every email: the site's name, and the poet's name once they have given it. */
function signedBy(site: MailSite): string {
  return site.poetName ? `${site.name}, poems by ${site.poetName}` : site.name;
}

/** The plain-text emails' last lines: the same signature as the HTML footer. */
export function textSignature(site: MailSite): string[] {
  return ["", "--", signedBy(site), site.publicUrl];
}

/**
 * The one frame every email shares: a readable single column under the site's name, ending with
 * a footer that signs it (docs/product/digest.md, Whose email it is). `homeUrl` is where the
 * footer's link to the site goes: the digest sends it through its counted redirect.
 */
export function emailLayout(site: MailSite, body: string, homeUrl = site.publicUrl): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeMarkup(site.name)}</title></head>
<body style="margin:0;background:#fbf8f3;font-family:Georgia,serif;color:#1c1917">
<div style="max-width:560px;margin:0 auto;padding:32px 24px">
<p style="font-size:20px;color:#9f4314;margin:0 0 24px">${escapeMarkup(site.name)}</p>
${body}
<p style="font-size:12px;color:#78716c;line-height:1.6;margin:32px 0 0;border-top:1px solid #e7d8c9;padding-top:12px">${escapeMarkup(signedBy(site))} · <a href="${escapeMarkup(homeUrl)}" style="color:#78716c">${escapeMarkup(new URL(site.publicUrl).host)}</a></p>
</div></body></html>`;
}
