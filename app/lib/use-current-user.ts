import { useEffect, useState } from "react";
import { useRouteLoaderData } from "react-router";
import { CURRENT_USER_CACHE_MS } from "../../common/constants.ts";
import { endpoints } from "../../common/endpoints.ts";
import type { Audience } from "../../server/db/visibility.ts";
import { callApi } from "./api.ts";
import type { CurrentUser } from "./current-user.ts";

/**
 * Who the page is for: anonymous, a signed-in reader, or the admin. It is all the server's HTML
 * knows, so a page is the same for every reader of an audience and is served from the page cache
 * (server/http/page-cache.ts); it decides the header and whether an action needs sign-in.
 */
export function useAudience(): Audience {
  const root = useRouteLoaderData("root") as { audience: Audience } | undefined;
  return root?.audience ?? "anonymous";
}

/**
 * The current user is kept 5 minutes, never retried, never refetched on focus
 * (docs/product/accounts.md, Sessions).
 */
let currentUser: { promise: Promise<CurrentUser | null>; fetchedAt: number } | undefined;

function fetchCurrentUser(): Promise<CurrentUser | null> {
  if (currentUser && Date.now() - currentUser.fetchedAt < CURRENT_USER_CACHE_MS) {
    return currentUser.promise;
  }
  const promise = callApi(endpoints.currentUser).catch(() => null);
  currentUser = { promise, fetchedAt: Date.now() };
  return promise;
}

/** After the reader changed their name or signed out: the next reading asks the server again. */
export function forgetCurrentUser() {
  currentUser = undefined;
}

/**
 * The signed-in reader themself (their id, name, role), learnt after hydration from
 * GET /api/auth/user, never from the page: null while anonymous or not yet known.
 */
export function useCurrentUser(): CurrentUser | null {
  const audience = useAudience();
  const [user, setUser] = useState<CurrentUser | null>(null);
  useEffect(() => {
    if (audience === "anonymous") {
      setUser(null);
      return;
    }
    let isCurrent = true;
    fetchCurrentUser().then((found) => {
      if (isCurrent) setUser(found);
    });
    return () => {
      isCurrent = false;
    };
  }, [audience]);
  return user;
}
