import { and, eq, gt, sql } from "drizzle-orm";
import { type Audience, audienceOf } from "../../common/session.ts";
import type { Actor, SessionUser } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import type { Database } from "../db/client.ts";
import { sessions, users } from "../db/schema.ts";
import type { Auth } from "./auth.ts";
import { sessionCookieIn } from "./session-cookie.ts";

/**
 * How long a page trusts what it knows of a session cookie before the session store is asked
 * again (on the embedded database, this instance's memory is that store's exact image).
 */
export const AUDIENCE_LOOKUP_MS = 2_000;
/**
 * How long a session read through better-auth is remembered before it is read through it again:
 * which also extends a session in use (its updateAge) and picks up a changed name or picture.
 */
const SESSION_MEMORY_MS = 60_000;
/** Session cookies remembered at once; past this the memory starts over. */
const SESSIONS_REMEMBERED = 50_000;

/** What this instance knows of one session cookie. */
interface KnownSession {
  /** Who it signs in; null when it names no session (forged, expired, signed out). */
  actor: SessionUser | null;
  /** The session row's token, by which a shared database is asked whether it still lives. */
  token: string;
  expiresAt: number;
  /** When better-auth read it. */
  readAt: number;
  /** When the session store last said it lives: that read, or a confirmation since. */
  confirmedAt: number;
}

/**
 * Prepared once: each connection then only binds and executes it (decision 026). It reads the
 * reader's name, picture and block with the session, so what another instance changed of them
 * holds here at the next call, in the same one statement.
 */
function prepareSessionIsLive(db: Database) {
  return db
    .select({
      firstName: users.firstName,
      lastName: users.lastName,
      profileImageUrl: users.profileImageUrl,
      blockedAt: users.blockedAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.token, sql.placeholder("token")),
        gt(sessions.expiresAt, sql.placeholder("now")),
      ),
    )
    .prepare("session_is_live");
}

/** What better-auth reads of a session cookie: its signature, its expiry, the user. */
async function readThroughBetterAuth(auth: Auth, cookieHeader: string): Promise<KnownSession> {
  const result = await auth.api.getSession({ headers: new Headers({ cookie: cookieHeader }) });
  const now = Date.now();
  const user = result?.user as
    | (NonNullable<typeof result>["user"] & Partial<SessionUser>)
    | undefined;
  return {
    actor: user
      ? {
          id: user.id,
          email: user.email,
          firstName: user.firstName ?? null,
          lastName: user.lastName ?? null,
          profileImageUrl: user.image ?? null,
          role: user.role === "ADMIN" ? "ADMIN" : "USER",
          isBlocked: Boolean((user as { blockedAt?: unknown }).blockedAt),
        }
      : null,
    token: result?.session.token ?? "",
    expiresAt: result ? new Date(result.session.expiresAt).getTime() : Number.POSITIVE_INFINITY,
    readAt: now,
    confirmedAt: now,
  };
}

/**
 * What this instance remembers of session cookies (decision 025): who each signs in, read through
 * better-auth, and the changes made through this instance that must hold here at once.
 */
export function createSessionMemory(
  { db, ownsDatabase }: Pick<ServiceDeps, "db" | "ownsDatabase">,
  auth: Auth,
) {
  const knownSessions = new Map<string, KnownSession>();
  const sessionIsLive = prepareSessionIsLive(db);

  /**
   * Counts the sessions ended and the readers changed through this instance (sign-out, role
   * change, name, block): a read begun before one may have seen the old state, and is then
   * answered but not remembered.
   */
  let sessionsEnded = 0;

  /** Reads a session cookie through better-auth and remembers it. */
  async function readSession(cookieValue: string, cookieHeader: string): Promise<KnownSession> {
    const endedBefore = sessionsEnded;
    const known = await readThroughBetterAuth(auth, cookieHeader);
    if (sessionsEnded !== endedBefore) return known;
    if (knownSessions.size >= SESSIONS_REMEMBERED) knownSessions.clear();
    knownSessions.set(cookieValue, known);
    return known;
  }

  /**
   * Who a session cookie signs in, as the session store says it at most `confirmedWithinMs` ago.
   * On the embedded database every sign-out, role change and expiry passes through this
   * instance, so what it remembers is exact and costs no read. On a shared database another
   * instance may have ended the session: one indexed read confirms it still lives.
   */
  async function sessionActor(cookieHeader: string, confirmedWithinMs: number): Promise<Actor> {
    const cookieValue = sessionCookieIn(cookieHeader)?.value;
    if (!cookieValue) return null;
    const now = Date.now();
    const known = knownSessions.get(cookieValue);
    if (!known || now - known.readAt >= SESSION_MEMORY_MS || now >= known.expiresAt) {
      return (await readSession(cookieValue, cookieHeader)).actor;
    }
    if (!known.actor || ownsDatabase || now - known.confirmedAt < confirmedWithinMs) {
      return known.actor;
    }
    const [live] = await sessionIsLive.execute({ token: known.token, now: new Date(now) });
    if (!live) {
      knownSessions.set(cookieValue, { ...known, actor: null });
      return null;
    }
    known.confirmedAt = now;
    known.actor = {
      ...known.actor,
      firstName: live.firstName,
      lastName: live.lastName,
      profileImageUrl: live.profileImageUrl,
      isBlocked: live.blockedAt !== null,
    };
    return known.actor;
  }

  return {
    sessionActor,

    /**
     * A change to a reader made through this instance (their name, their block) holds here at
     * once; other instances read it with the next call's session confirmation.
     */
    rememberReaderChange(userId: string, change: Partial<SessionUser>) {
      sessionsEnded += 1;
      for (const known of knownSessions.values()) {
        if (known.actor?.id === userId) known.actor = { ...known.actor, ...change };
      }
    },

    /** Every session of a reader ended (sign-out everywhere, a deleted account) holds here at once. */
    forgetReaderSessions(userId: string) {
      sessionsEnded += 1;
      for (const [cookieValue, known] of knownSessions) {
        if (known.actor?.id === userId) knownSessions.delete(cookieValue);
      }
    },

    /** A sign-out through this instance holds here at once. */
    forgetSession(cookieHeader: string) {
      sessionsEnded += 1;
      const cookieValue = sessionCookieIn(cookieHeader)?.value;
      if (cookieValue) knownSessions.delete(cookieValue);
    },
  };
}

/** Who is asking: the acting user of a call, and the audience of a page, from the session memory. */
export function requestActors(
  sessionActor: (cookieHeader: string, confirmedWithinMs: number) => Promise<Actor>,
) {
  return {
    /**
     * The acting user of an API call or a page render, from its session cookie (null when
     * anonymous, forged, expired or signed out). Sign-out and a role change hold for the next
     * call on every instance: the store is asked each time wherever it is shared.
     */
    resolveActor: (request: Request): Promise<Actor> =>
      sessionActor(request.headers.get("cookie") ?? "", 0),

    /**
     * Which audience a page request belongs to, for the page cache: the session store is asked
     * at most once per AUDIENCE_LOOKUP_MS per cookie, so a spike of signed-in readers costs no
     * database reads, and a sign-out or a role change shows in every instance's pages within
     * that time. `isSignedIn` false with a session cookie: one that names no session, which gets
     * the anonymous page (and the cookie cleared).
     */
    async audienceOf(cookieHeader: string): Promise<{ audience: Audience; isSignedIn: boolean }> {
      const actor = await sessionActor(cookieHeader, AUDIENCE_LOOKUP_MS);
      return { audience: audienceOf(actor), isSignedIn: actor !== null };
    },
  };
}
