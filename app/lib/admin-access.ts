import { useEffect } from "react";
import { useNavigate } from "react-router";
import { ADMIN_LOGGED_OUT_REDIRECT_MS } from "../../common/constants.ts";
import { notifyError } from "./toast.ts";

/**
 * What non-admins meet at the admin area's doors (SPEC.md §6). The server refuses every
 * /api/admin call to them; these are the reader-facing answers: /admin says the session is gone
 * and goes to sign-in after 500 ms, /admin/digest says admin access is required and goes home.
 */
export function useAdminDoor(isAdmin: boolean, area: "content" | "digest") {
  const navigate = useNavigate();
  useEffect(() => {
    if (isAdmin) return;
    if (area === "digest") {
      notifyError("Access denied", "Admin access required.");
      navigate("/", { replace: true });
      return;
    }
    notifyError("Unauthorized", "You are logged out. Logging in again...");
    const timer = setTimeout(
      () => window.location.assign("/api/login"),
      ADMIN_LOGGED_OUT_REDIRECT_MS,
    );
    return () => clearTimeout(timer);
  }, [isAdmin, area, navigate]);
}

export const adminMeta = (title: string) => [
  { title },
  { name: "robots", content: "noindex, nofollow" },
];
