/**
 * Whether a request asks for an ActivityStreams document rather than a page: its Accept header
 * prefers `application/activity+json` or `application/ld+json` (Mastodon sends both, a browser
 * neither) over `text/html`. Ties go to the page, which is what a browser always gets.
 * Used by the fediverse middleware and by the page cache, which must never answer such a request
 * with a page it keeps, nor keep the document as a page.
 */
export function wantsActivityJson(accept: string | undefined | null): boolean {
  if (!accept?.includes("json")) return false;
  let html = 0;
  let activity = 0;
  for (const part of accept.split(",")) {
    const [type = "", ...params] = part.split(";").map((piece) => piece.trim().toLowerCase());
    const qParam = params.find((param) => param.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) || 0 : 1;
    if (type === "application/activity+json" || type === "application/ld+json") {
      activity = Math.max(activity, q);
    } else if (type === "text/html" || type === "application/xhtml+xml") {
      html = Math.max(html, q);
    }
  }
  return activity > 0 && activity > html;
}

/** Adds `Accept` to a response's Vary, keeping what is there. */
export function varyOnAccept(vary: string | null): string {
  const names = (vary ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.some((name) => name === "*" || name.toLowerCase() === "accept"))
    return names.join(", ");
  return [...names, "Accept"].join(", ");
}
