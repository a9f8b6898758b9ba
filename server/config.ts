import path from "node:path";

/**
 * Every environment variable the server reads (README.md, Configuration), validated once at
 * start. A bad value stops the process with one line naming the variable and what it expects.
 */
export interface Config {
  nodeEnv: "development" | "production" | "test";
  port: number;
  host: string;
  publicUrl: URL;
  dataDir: string;
  databaseUrl: string | undefined;
  siteName: string;
  siteTimezone: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  /**
   * The address emails come from when MAIL_FROM is not set: each email then names the site as
   * the poet titled it. Absent when the operator set MAIL_FROM, which is used exactly as given.
   */
  defaultMailAddress: string | undefined;
  /** How long a digest delivery claimed by one instance stays its own before another may retry it. */
  digestLeaseSeconds: number;
  adminEmails: Set<string>;
  oidc: { issuer: string; clientId: string; clientSecret: string } | undefined;
  s3:
    | {
        bucket: string;
        region: string;
        endpoint: string | undefined;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
      }
    | undefined;
  demoContent: boolean;
  /** Multiplies every rate limit; only load tests (npm run bench) raise it. */
  rateLimitScale: number;
  /** Anonymous pages served from memory (server/http/page-cache.ts); off for measuring renders. */
  pageCache: boolean;
  /**
   * Pages, readings and share-card fetches counted for the admin's insights (docs/decisions/
   * 049-counting-without-tracking.md); off only for measuring what counting costs.
   */
  counting: boolean;
  /** Undefined means "generate once into DATA_DIR" (server/secrets.ts). */
  sessionSecret: string | undefined;
  trustProxy: number;
  /** The site as one ActivityPub actor (docs/decisions/045-federation-layer.md). */
  fediverse: {
    enabled: boolean;
    /** The actor's name in `@{handle}@{host of PUBLIC_URL}`. */
    handle: string;
    /** Lets remote fetches reach loopback and private addresses: for tests with local peers. */
    allowPrivateAddresses: boolean;
    /** How long a delivery claimed by one instance stays its own before another may send it. */
    leaseSeconds: number;
  };
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

type Env = Record<string, string | undefined>;

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === "" ? undefined : value;
}

function fail(name: string, expected: string, got: string): never {
  throw new ConfigError(`${name} must be ${expected}, got ${JSON.stringify(got)}`);
}

function readInteger(env: Env, name: string, min: number, max: number, fallback: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    fail(name, `a number from ${min} to ${max}`, raw);
  }
  return value;
}

function readBoolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (/^(true|1|yes)$/i.test(raw)) return true;
  if (/^(false|0|no)$/i.test(raw)) return false;
  return fail(name, "true or false", raw);
}

function readUrl(env: Env, name: string, protocols: string[]): URL | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail(name, `a URL (${protocols.join(", ")})`, raw);
  }
  if (!protocols.includes(url.protocol)) fail(name, `a URL (${protocols.join(", ")})`, raw);
  return url;
}

function readTimezone(env: Env): string {
  const raw = read(env, "SITE_TIMEZONE") ?? "UTC";
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: raw });
  } catch {
    fail("SITE_TIMEZONE", "an IANA time zone such as Europe/London", raw);
  }
  return raw;
}

function readOidc(env: Env): Config["oidc"] {
  const names = ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"] as const;
  const [issuer, clientId, clientSecret] = names.map((name) => read(env, name));
  if (!issuer && !clientId && !clientSecret) return undefined;
  const missing = names.find((name) => !read(env, name));
  if (missing) {
    throw new ConfigError(`${missing} must be set when any OIDC_* variable is set`);
  }
  readUrl(env, "OIDC_ISSUER", ["https:", "http:"]);
  return {
    issuer: issuer as string,
    clientId: clientId as string,
    clientSecret: clientSecret as string,
  };
}

function readS3(env: Env): Config["s3"] {
  const bucket = read(env, "S3_BUCKET");
  if (!bucket) return undefined;
  return {
    bucket,
    region: read(env, "S3_REGION") ?? "us-east-1",
    endpoint: readUrl(env, "S3_ENDPOINT", ["https:", "http:"])?.toString(),
    accessKeyId: read(env, "S3_ACCESS_KEY_ID"),
    secretAccessKey: read(env, "S3_SECRET_ACCESS_KEY"),
  };
}

function readFediverse(env: Env): Config["fediverse"] {
  const handle = read(env, "FEDIVERSE_HANDLE") ?? "poet";
  if (!/^[a-z0-9_]{1,30}$/i.test(handle)) {
    fail("FEDIVERSE_HANDLE", "1 to 30 letters, digits or underscores", handle);
  }
  return {
    enabled: readBoolean(env, "FEDIVERSE", true),
    handle,
    allowPrivateAddresses: readBoolean(env, "FEDIVERSE_ALLOW_PRIVATE_ADDRESSES", false),
    leaseSeconds: readInteger(env, "FEDIVERSE_LEASE_SECONDS", 5, 3600, 60),
  };
}

export function loadConfig(env: Env = process.env): Config {
  const rawNodeEnv = read(env, "NODE_ENV") ?? "development";
  if (!["development", "production", "test"].includes(rawNodeEnv)) {
    fail("NODE_ENV", "development, production or test", rawNodeEnv);
  }
  const nodeEnv = rawNodeEnv as Config["nodeEnv"];
  const port = readInteger(env, "PORT", 0, 65535, 3000);
  const databaseUrl = readUrl(env, "DATABASE_URL", ["postgres:", "postgresql:"])?.toString();
  const siteName = read(env, "SITE_NAME") ?? "Ember Verse";
  const publicUrl =
    readUrl(env, "PUBLIC_URL", ["http:", "https:"]) ?? new URL(`http://localhost:${port}`);
  const sessionSecret = read(env, "SESSION_SECRET");
  if (sessionSecret !== undefined && sessionSecret.length < 32) {
    fail("SESSION_SECRET", "at least 32 characters", `${sessionSecret.length} characters`);
  }
  if (nodeEnv === "production" && databaseUrl && !sessionSecret) {
    throw new ConfigError(
      "SESSION_SECRET must be set when NODE_ENV=production and DATABASE_URL is set (instances must share it)",
    );
  }
  return {
    nodeEnv,
    port,
    host: read(env, "HOST") ?? "0.0.0.0",
    publicUrl: new URL(publicUrl.origin),
    dataDir: path.resolve(read(env, "DATA_DIR") ?? "./data"),
    databaseUrl,
    siteName,
    siteTimezone: readTimezone(env),
    smtpUrl: readUrl(env, "SMTP_URL", ["smtp:", "smtps:"])?.toString(),
    mailFrom: read(env, "MAIL_FROM") ?? `${siteName} <no-reply@${publicUrl.hostname}>`,
    defaultMailAddress: read(env, "MAIL_FROM") ? undefined : `no-reply@${publicUrl.hostname}`,
    digestLeaseSeconds: readInteger(env, "DIGEST_LEASE_SECONDS", 5, 3600, 120),
    adminEmails: new Set(
      (read(env, "ADMIN_EMAILS") ?? "")
        .split(",")
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    ),
    oidc: readOidc(env),
    s3: readS3(env),
    demoContent: readBoolean(env, "DEMO_CONTENT", databaseUrl === undefined),
    pageCache: readBoolean(env, "PAGE_CACHE", true),
    counting: readBoolean(env, "COUNTING", true),
    rateLimitScale: readInteger(env, "RATE_LIMIT_SCALE", 1, 1_000_000, 1),
    sessionSecret,
    trustProxy: readInteger(env, "TRUST_PROXY", 0, 10, 0),
    fediverse: readFediverse(env),
  };
}
