import { z } from "zod";
import { emailAddress } from "./subscription.ts";

/** The person a session belongs to, as the server resolves it once per request. */
export const sessionUser = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  role: z.enum(["USER", "ADMIN"]),
});

/** GET /api/auth/user (SPEC.md §3, Current user: the role and an authenticated flag). */
export const currentUser = sessionUser.extend({ authenticated: z.literal(true) });

/** POST /api/auth/email-link, from the sign-in page's script or its form. */
export const signInLinkRequest = z.object({
  email: emailAddress,
  returnTo: z.string().max(2000).optional(),
});
