import type { TestApp } from "./test-app.ts";

/** The cookie pairs a response sets, as one Cookie header value. */
export function cookiesFrom(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/** Signs `email` in through the operator's login link and returns the session cookie. */
export async function signIn(t: TestApp, email: string, options: { admin?: boolean } = {}) {
  const link = await t.services.accounts.createLoginLink(email, { admin: options.admin ?? false });
  const url = new URL(link);
  const response = await t.app.request(url.pathname + url.search);
  const cookie = cookiesFrom(response);
  if (!cookie.includes("ev.session_token")) throw new Error(`sign-in failed: ${response.status}`);
  return cookie;
}
