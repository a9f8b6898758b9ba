import { useEffect } from "react";
import { useLocation, useNavigate } from "react-router";
import { ADMIN_LOGGED_OUT_REDIRECT_MS } from "../../common/constants.ts";
import * as pages from "../../common/pages.ts";
import { notifyError } from "./toast.ts";

/** The query parameter on `/` that says which admin door a non-admin was turned away from. */
const ADMIN_DOOR_PARAM = "admin-door";

/**
 * Where the admin layout (app/routes/admin-layout.tsx) sends a non-admin, before any admin data
 * is loaded: home, with the door they knocked at, so home can say what the spec says there.
 */
export function adminDoorRedirect(pathname: string): string {
  const door = pathname.startsWith(pages.adminDigest) ? "digest" : "content";
  return `/?${ADMIN_DOOR_PARAM}=${door}`;
}

/**
 * What non-admins meet at the admin area's doors (docs/product/accounts.md), shown on the page
 * they were sent to: /admin/digest says admin access is required (they stay home); /admin says the
 * session is gone and goes to sign-in after 500 ms. The parameter leaves the address bar.
 */
export function useAdminDoorNotice() {
  const location = useLocation();
  const navigate = useNavigate();
  const door = new URLSearchParams(location.search).get(ADMIN_DOOR_PARAM);
  useEffect(() => {
    if (door !== "digest" && door !== "content") return;
    const params = new URLSearchParams(location.search);
    params.delete(ADMIN_DOOR_PARAM);
    const search = params.toString();
    navigate(
      { pathname: location.pathname, search: search ? `?${search}` : "", hash: location.hash },
      { replace: true, preventScrollReset: true },
    );
    if (door === "digest") {
      notifyError("Access denied", "Admin access required.");
      return;
    }
    notifyError("Unauthorized", "You are logged out. Logging in again...");
    setTimeout(() => window.location.assign("/api/login"), ADMIN_LOGGED_OUT_REDIRECT_MS);
  }, [door, location.pathname, location.search, location.hash, navigate]);
}

export const adminMeta = (title: string) => [
  { title },
  { name: "robots", content: "noindex, nofollow" },
];
