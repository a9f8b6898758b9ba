import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * A digest link's token (docs/decisions/049-counting-without-tracking.md): the run, the link's
 * position in that run's digest, and an HMAC over both with the site's secret. It names no
 * subscriber, and an altered one matches nothing, so the click redirect leads only to a link
 * that was in that digest.
 */
const signature = (secret: string, runId: number, link: number) =>
  createHmac("sha256", secret)
    .update(`digest-click:${runId}:${link}`)
    .digest("base64url")
    .slice(0, 22);

export function digestClickToken(secret: string, runId: number, link: number): string {
  return `${runId}-${link}-${signature(secret, runId, link)}`;
}

export function readDigestClickToken(
  secret: string,
  token: string,
): { runId: number; link: number } | undefined {
  const match = /^(\d{1,9})-(\d{1,4})-([A-Za-z0-9_-]{22})$/.exec(token);
  if (!match) return undefined;
  const runId = Number(match[1]);
  const link = Number(match[2]);
  const expected = Buffer.from(signature(secret, runId, link));
  const given = Buffer.from(match[3] ?? "");
  return expected.length === given.length && timingSafeEqual(expected, given)
    ? { runId, link }
    : undefined;
}
