import { escapeMarkup } from "../escape.ts";

/** The one frame every email shares: a readable single column with the site's name. */
export function emailLayout(siteName: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeMarkup(siteName)}</title></head>
<body style="margin:0;background:#fbf8f3;font-family:Georgia,serif;color:#1c1917">
<div style="max-width:560px;margin:0 auto;padding:32px 24px">
<p style="font-size:20px;color:#9f4314;margin:0 0 24px">${escapeMarkup(siteName)}</p>
${body}
</div></body></html>`;
}
