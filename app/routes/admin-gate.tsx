import { useEffect } from "react";
import { useNavigate } from "react-router";
import { ADMIN_LOGGED_OUT_REDIRECT_MS } from "../../common/constants.ts";
import { appContext } from "../lib/app-context.ts";
import { notifyError } from "../lib/toast.ts";
import type { Route } from "./+types/admin-gate";

/**
 * The admin area's door (SPEC.md §6). The server refuses every /api/admin call to non-admins;
 * these are the reader-facing answers: /admin says the session is gone and goes to sign-in after
 * 500 ms, /admin/digest says admin access is required and goes home.
 */
export function loader({ context, request }: Route.LoaderArgs) {
  const { actor } = context.get(appContext);
  return {
    isAdmin: actor?.role === "ADMIN",
    isDigest: new URL(request.url).pathname.startsWith("/admin/digest"),
  };
}

export function meta() {
  return [{ title: "Admin" }, { name: "robots", content: "noindex, nofollow" }];
}

export default function AdminGate({ loaderData }: Route.ComponentProps) {
  const { isAdmin, isDigest } = loaderData;
  const navigate = useNavigate();
  useEffect(() => {
    if (isAdmin) return;
    if (isDigest) {
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
  }, [isAdmin, isDigest, navigate]);

  if (!isAdmin) return null;
  return (
    <section className="mx-auto max-w-xl py-16 text-center">
      <h1 className="font-serif text-3xl">
        {isDigest ? "Weekly Ember Digest" : "Content Management"}
      </h1>
      <p className="mt-4 text-stone-700">The admin tools are coming soon.</p>
    </section>
  );
}
