import { useRouteLoaderData } from "react-router";
import type { CurrentUser } from "./current-user.ts";

/** The signed-in reader, as the root loader found them from the session (null: anonymous). */
export function useCurrentUser(): CurrentUser | null {
  const root = useRouteLoaderData("root") as { user: CurrentUser | null } | undefined;
  return root?.user ?? null;
}
