import http from "node:http";
import { eq } from "drizzle-orm";
import Provider from "oidc-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../server/db/schema.ts";
import { freePort } from "../helpers/server.ts";
import { cookiesFrom } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/** The provider's own cookies, kept like a browser would for its origin. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(response: Response) {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const [name, ...value] = (pair ?? "").split("=");
      if (name) this.cookies.set(name.trim(), value.join("="));
    }
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

const PROFILE = {
  sub: "reader-1",
  email: "Oidc.Reader@Example.com",
  email_verified: true,
  given_name: "Ada",
  family_name: "Lovelace",
  picture: "https://example.com/ada.png",
};

describe("OpenID Connect sign-in against a real provider on loopback", () => {
  let t: TestApp;
  let providerServer: http.Server;
  let issuer: string;

  beforeAll(async () => {
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: "ember-verse",
          client_secret: "a-test-secret-that-is-long-enough-1234567890",
          redirect_uris: ["http://localhost:3000/api/auth/callback/oidc"],
          grant_types: ["authorization_code"],
          response_types: ["code"],
        },
      ],
      claims: {
        openid: ["sub"],
        email: ["email", "email_verified"],
        profile: ["given_name", "family_name", "picture"],
      },
      async findAccount(_ctx, id) {
        return { accountId: id, claims: async () => ({ ...PROFILE, sub: id }) };
      },
      cookies: { keys: ["test-cookie-key"] },
    });
    providerServer = http.createServer(provider.callback());
    await new Promise<void>((resolve) => providerServer.listen(port, "127.0.0.1", resolve));
    t = await createTestApp("pglite", {
      env: {
        OIDC_ISSUER: issuer,
        OIDC_CLIENT_ID: "ember-verse",
        OIDC_CLIENT_SECRET: "a-test-secret-that-is-long-enough-1234567890",
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => providerServer.close(() => resolve()));
  });

  /** Walks the provider's login and consent screens as a person would, returning the callback URL. */
  async function authorizeAtProvider(authorizeUrl: string): Promise<URL> {
    const jar = new CookieJar();
    let url = authorizeUrl;
    for (let step = 0; step < 12; step++) {
      const response = await fetch(url, { headers: { Cookie: jar.header() }, redirect: "manual" });
      jar.store(response);
      const location = response.headers.get("location");
      if (location) {
        const next = new URL(location, url);
        if (next.pathname.startsWith("/api/auth/callback/")) return next;
        url = next.toString();
        continue;
      }
      const page = await response.text();
      const prompt = page.includes('name="login"') ? "login" : "consent";
      const action = new URL(/action="([^"]+)"/.exec(page)?.[1] ?? "", url);
      const body = new URLSearchParams(
        prompt === "login" ? { prompt, login: PROFILE.sub, password: "x" } : { prompt },
      );
      const submitted = await fetch(action, {
        method: "POST",
        headers: { Cookie: jar.header(), "Content-Type": "application/x-www-form-urlencoded" },
        body,
        redirect: "manual",
      });
      jar.store(submitted);
      url = new URL(submitted.headers.get("location") ?? "", action).toString();
    }
    throw new Error("the provider never redirected back");
  }

  it("signs in with PKCE, fills the profile, and returns to the page", async () => {
    const start = await t.app.request("/api/auth/oidc/start", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ returnTo: "/journal" }).toString(),
    });
    expect(start.status).toBe(303);
    const authorizeUrl = new URL(start.headers.get("location") ?? "");
    expect(authorizeUrl.origin).toBe(issuer);
    expect(authorizeUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizeUrl.searchParams.get("scope")).toContain("email");

    const callback = await authorizeAtProvider(authorizeUrl.toString());
    const finish = await t.app.request(callback.pathname + callback.search, {
      headers: { Cookie: cookiesFrom(start) },
    });
    expect(finish.status).toBe(302);
    expect(finish.headers.get("location")).toBe("/journal");

    const me = await t.app.request("/api/auth/user", { headers: { Cookie: cookiesFrom(finish) } });
    expect(await me.json()).toMatchObject({
      email: "oidc.reader@example.com",
      firstName: "Ada",
      lastName: "Lovelace",
      profileImageUrl: "https://example.com/ada.png",
      role: "USER",
      authenticated: true,
    });
  });

  it("shows the sign-in error page when the state does not match", async () => {
    const start = await t.app.request("/api/auth/oidc/start", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "returnTo=%2F",
    });
    const callback = await authorizeAtProvider(start.headers.get("location") ?? "");
    callback.searchParams.set("state", "forged-state");
    const finish = await t.app.request(callback.pathname + callback.search, {
      headers: { Cookie: cookiesFrom(start) },
    });
    expect(finish.status).toBe(302);
    expect(finish.headers.get("location")).toBe("/login?error=oidc");
    expect(cookiesFrom(finish)).not.toContain("session_token");
    expect(await t.db.select().from(users).where(eq(users.email, "nobody@example.com"))).toEqual(
      [],
    );
  });

  it("shows the sign-in error page when the provider is down", async () => {
    const down = await createTestApp("pglite", {
      env: { OIDC_ISSUER: "http://127.0.0.1:1", OIDC_CLIENT_ID: "x", OIDC_CLIENT_SECRET: "y" },
    });
    try {
      const start = await down.app.request("/api/auth/oidc/start", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "returnTo=%2F",
      });
      expect(start.status).toBe(303);
      expect(start.headers.get("location")).toBe("/login?error=oidc");
    } finally {
      await down.close();
    }
  });
});
