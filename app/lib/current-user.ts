import type { z } from "zod/mini";
import type { currentUser } from "../../common/schemas/account.ts";

/** The signed-in reader as GET /api/auth/user answers (docs/product/api.md). */
export type CurrentUser = z.output<typeof currentUser>;
