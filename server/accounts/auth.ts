import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import { magicLink } from "better-auth/plugins/magic-link";
import { eq } from "drizzle-orm";
import { AUTH_BASE_PATH } from "../../common/mounts.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { accounts, sessions, users, verifications } from "../db/schema.ts";
import type { Logger } from "../logger.ts";

/** An emailed or printed sign-in link works once, for 15 minutes (issue: Accounts and sign-in). */
export const SIGN_IN_LINK_TTL_SECONDS = 15 * 60;
const SESSION_TTL_SECONDS = 30 * 24 * 60 * 60;
export const OIDC_PROVIDER_ID = "oidc";

/** Where the magic-link plugin delivers a freshly made link; the accounts service decides. */
export type SignInLinkSink = (email: string, url: string) => Promise<void>;

interface AuthDeps {
  db: Database;
  config: Config;
  logger: Logger;
  secret: string;
  deliverSignInLink: SignInLinkSink;
}

/**
 * better-auth over our own tables (docs/decisions/004): sessions in the database, email links
 * stored hashed, optional OpenID Connect with PKCE. Roles follow ADMIN_EMAILS at every sign-in.
 */
export function createAuth({ db, config, logger, secret, deliverSignInLink }: AuthDeps) {
  const promoteListedAdmin = async (userId: string, email: string) => {
    if (config.adminEmails.has(email.toLowerCase())) {
      await db.update(users).set({ role: "ADMIN" }).where(eq(users.id, userId));
    }
  };

  return betterAuth({
    appName: config.siteName,
    baseURL: config.publicUrl.origin,
    basePath: AUTH_BASE_PATH,
    secret,
    // Its messages join the structured log; they carry no tokens or cookies.
    logger: {
      level: "warn",
      log: (level, message) =>
        logger[level === "debug" ? "debug" : level]({ component: "auth" }, message),
    },
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user: users, session: sessions, account: accounts, verification: verifications },
    }),
    user: {
      fields: { image: "profileImageUrl" },
      additionalFields: {
        firstName: { type: "string", required: false },
        lastName: { type: "string", required: false },
        role: { type: "string", required: false, defaultValue: "USER", input: false },
        blockedAt: { type: "date", required: false, input: false },
      },
    },
    session: {
      expiresIn: SESSION_TTL_SECONDS,
      updateAge: 24 * 60 * 60,
      // Every request reads the session row, so logout and role changes take effect at once.
      cookieCache: { enabled: false },
    },
    account: { accountLinking: { enabled: true, trustedProviders: [OIDC_PROVIDER_ID] } },
    // Our own limiter (server/core/rate-limit.ts) keeps its counters in the database.
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: "ev",
      useSecureCookies: config.publicUrl.protocol === "https:",
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
      database: { generateId: "uuid" },
    },
    databaseHooks: {
      session: {
        create: {
          // Every way in (an emailed or printed link, OpenID Connect) ends in a new session: a
          // fediverse author's row never gets one (docs/decisions/046-fediverse-voices.md).
          before: async (session) => {
            const [user] = await db
              .select({ isRemote: users.isRemote })
              .from(users)
              .where(eq(users.id, session.userId));
            return !user?.isRemote;
          },
          after: async (session) => {
            const [user] = await db
              .select({ email: users.email })
              .from(users)
              .where(eq(users.id, session.userId));
            if (user?.email) await promoteListedAdmin(session.userId, user.email);
          },
        },
      },
    },
    plugins: [
      magicLink({
        expiresIn: SIGN_IN_LINK_TTL_SECONDS,
        storeToken: "hashed",
        allowedAttempts: 1,
        sendMagicLink: ({ email, url }) => deliverSignInLink(email, url),
      }),
      ...(config.oidc ? [oidcSignIn(config.oidc)] : []),
    ],
  });
}

/** OpenID Connect with PKCE: the provider's profile names the reader and gives their picture. */
function oidcSignIn(oidc: NonNullable<Config["oidc"]>) {
  return genericOAuth({
    config: [
      {
        providerId: OIDC_PROVIDER_ID,
        discoveryUrl: `${oidc.issuer.replace(/\/$/, "")}/.well-known/openid-configuration`,
        clientId: oidc.clientId,
        clientSecret: oidc.clientSecret,
        scopes: ["openid", "email", "profile"],
        pkce: true,
        overrideUserInfo: true,
        mapProfileToUser: (profile) => ({
          email: typeof profile.email === "string" ? profile.email.toLowerCase() : undefined,
          name: [profile.given_name, profile.family_name].filter(Boolean).join(" "),
          firstName: typeof profile.given_name === "string" ? profile.given_name : null,
          lastName: typeof profile.family_name === "string" ? profile.family_name : null,
          image: typeof profile.picture === "string" ? profile.picture : undefined,
        }),
      },
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
