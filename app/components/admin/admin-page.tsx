import type { ReactNode } from "react";
import { Link } from "react-router";
import * as pages from "../../../common/pages.ts";

/** The admin's pages beside Content Management and its five tabs, linked from there in order. */
export const ADMIN_PAGES = [
  { to: pages.adminDigest, label: "Digest Admin" },
  { to: pages.adminImport, label: "Import" },
  { to: pages.adminChapbooks, label: "Chapbooks" },
  { to: pages.adminInsights, label: "Insights" },
  { to: pages.adminSubmissions, label: "Guest Submissions" },
  { to: pages.adminSettings, label: "Site Settings" },
  { to: pages.adminGuestVoices, label: "Guest Voices" },
  { to: pages.adminFediverse, label: "Fediverse" },
] as const;

/** One of those pages: the way back to Content Management, its heading, then its content. */
export function AdminPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mx-auto max-w-3xl px-4 py-10">
      <p>
        <Link to={pages.admin} className="text-sm text-ember-700 underline underline-offset-4">
          Content Management
        </Link>
      </p>
      <h1 className="mt-2 font-serif text-3xl">{title}</h1>
      {children}
    </section>
  );
}
