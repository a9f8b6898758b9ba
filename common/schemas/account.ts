import { z } from "zod/mini";
import { emailAddress } from "./subscription.ts";

/** The person a session belongs to, as the server resolves it once per request. */
export const sessionUser = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.nullable(z.string()),
  lastName: z.nullable(z.string()),
  profileImageUrl: z.nullable(z.string()),
  role: z.enum(["USER", "ADMIN"]),
});

/** GET /api/auth/user (docs/product/api.md: the role and an authenticated flag). */
export const currentUser = z.extend(sessionUser, { authenticated: z.literal(true) });

/** POST /api/auth/email-link, from the sign-in page's script or its form. */
export const signInLinkRequest = z.object({
  email: emailAddress,
  returnTo: z.optional(z.string().check(z.maxLength(2000))),
});
