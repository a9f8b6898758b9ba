/**
 * The session cookie a Cookie header carries, as better-auth names it (cookiePrefix "ev"; under
 * https the name has the `__Secure-` prefix): its name and its value, or undefined.
 */
export function sessionCookieIn(cookieHeader: string): { name: string; value: string } | undefined {
  const found = /(?:^|;\s*)((?:__Secure-)?ev\.session_token)=([^;]*)/.exec(cookieHeader);
  return found?.[1] === undefined ? undefined : { name: found[1], value: found[2] ?? "" };
}

/** Expires a session cookie of that name at once (its attributes as better-auth sets them). */
export const clearedSessionCookie = (name: string) =>
  `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${name.startsWith("__Secure-") ? "; Secure" : ""}`;
