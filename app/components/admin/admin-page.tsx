import type { ReactNode } from "react";
import { Link } from "react-router";

/** The admin's pages beside Content Management and its five tabs, linked from there in order. */
export const ADMIN_PAGES = [
  { to: "/admin/digest", label: "Digest Admin" },
  { to: "/admin/import", label: "Import" },
  { to: "/admin/chapbooks", label: "Chapbooks" },
  { to: "/admin/insights", label: "Insights" },
  { to: "/admin/submissions", label: "Guest Submissions" },
  { to: "/admin/settings", label: "Site Settings" },
  { to: "/admin/guest-voices", label: "Guest Voices" },
  { to: "/admin/fediverse", label: "Fediverse" },
] as const;

/** One of those pages: the way back to Content Management, its heading, then its content. */
export function AdminPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mx-auto max-w-3xl px-4 py-10">
      <p>
        <Link to="/admin" className="text-sm text-ember-700 underline underline-offset-4">
          Content Management
        </Link>
      </p>
      <h1 className="mt-2 font-serif text-3xl">{title}</h1>
      {children}
    </section>
  );
}
