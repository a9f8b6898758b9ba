/** The person acting on a request, resolved once per request from the session. */
export interface SessionUser {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  role: "USER" | "ADMIN";
}

/** null is an anonymous visitor. */
export type Actor = SessionUser | null;

export const isAdmin = (actor: Actor): actor is SessionUser => actor?.role === "ADMIN";
