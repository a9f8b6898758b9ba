import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";

describe("loadConfig", () => {
  it("has working defaults for a fresh machine", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.publicUrl.origin).toBe("http://localhost:3000");
    expect(config.siteName).toBe("Ember Verse");
    expect(config.siteTimezone).toBe("UTC");
    expect(config.databaseUrl).toBeUndefined();
    expect(config.demoContent).toBe(true);
    expect(config.mailFrom).toBe("Ember Verse <no-reply@localhost>");
    expect(config.fediverse).toEqual({
      enabled: true,
      handle: "poet",
      allowPrivateAddresses: false,
      leaseSeconds: 60,
    });
  });

  it.each([
    [{ PORT: "abc" }, 'PORT must be a number from 0 to 65535, got "abc"'],
    [
      { FEDIVERSE_LEASE_SECONDS: "2" },
      'FEDIVERSE_LEASE_SECONDS must be a number from 5 to 3600, got "2"',
    ],
    [{ PORT: "70000" }, 'PORT must be a number from 0 to 65535, got "70000"'],
    [{ PUBLIC_URL: "ftp://x" }, 'PUBLIC_URL must be a URL (http:, https:), got "ftp://x"'],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL must be a URL (postgres:, postgresql:)"],
    [
      { SITE_TIMEZONE: "Mars/Base" },
      'SITE_TIMEZONE must be an IANA time zone such as Europe/London, got "Mars/Base"',
    ],
    [{ DEMO_CONTENT: "maybe" }, 'DEMO_CONTENT must be true or false, got "maybe"'],
    [{ TRUST_PROXY: "-1" }, 'TRUST_PROXY must be a number from 0 to 10, got "-1"'],
    [
      { FEDIVERSE_HANDLE: "the poet" },
      'FEDIVERSE_HANDLE must be 1 to 30 letters, digits or underscores, got "the poet"',
    ],
    [{ FEDIVERSE: "sometimes" }, 'FEDIVERSE must be true or false, got "sometimes"'],
    [
      { OIDC_ISSUER: "https://id.example" },
      "OIDC_CLIENT_ID must be set when any OIDC_* variable is set",
    ],
    [{ SESSION_SECRET: "short" }, "SESSION_SECRET must be at least 32 characters"],
    [
      { NODE_ENV: "production", DATABASE_URL: "postgres://db/app" },
      "SESSION_SECRET must be set when NODE_ENV=production and DATABASE_URL is set",
    ],
  ])("refuses %j with one clear line", (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it("never puts a secret into its error message", () => {
    expect(() => loadConfig({ SESSION_SECRET: "hunter2" })).toThrow(/got "7 characters"/);
  });

  it("reads lists and switches", () => {
    const config = loadConfig({
      ADMIN_EMAILS: " Poet@Example.com, ,editor@example.com",
      DATABASE_URL: "postgres://postgres@127.0.0.1:5432/app",
      PUBLIC_URL: "https://poems.example/some/path",
    });
    expect([...config.adminEmails]).toEqual(["poet@example.com", "editor@example.com"]);
    expect(config.demoContent).toBe(false);
    expect(config.publicUrl.toString()).toBe("https://poems.example/");
  });
});
