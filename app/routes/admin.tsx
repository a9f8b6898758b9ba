import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { dayInZone } from "../../common/dates.ts";
import { ADMIN_PAGES } from "../components/admin/admin-page.tsx";
import { AdminTabs } from "../components/admin/admin-tabs.tsx";
import { BooksTab } from "../components/admin/books-tab.tsx";
import { EmbersTab } from "../components/admin/embers-tab.tsx";
import { PoemsTab } from "../components/admin/poems-tab.tsx";
import { SampleContentPanel } from "../components/admin/sample-content.tsx";
import { TagsTab } from "../components/admin/tags-tab.tsx";
import { WhispersTab } from "../components/admin/whispers-tab.tsx";
import { adminMeta } from "../lib/admin-access.ts";
import { appContext } from "../lib/app-context.ts";
import type { Route } from "./+types/admin";

export async function loader({ context }: Route.LoaderArgs) {
  // The ember schedule starts today in SITE_TIMEZONE, wherever the poet's browser is.
  const { site, services, admin } = context.get(appContext);
  const awaitingWhispers = admin
    ? await services.contentAdmin.countWhispersAwaitingApproval(admin)
    : 0;
  return { today: dayInZone(site.timezone), timezone: site.timezone, awaitingWhispers };
}

export const meta = () => adminMeta("Content Management");

/** Content Management (docs/product/admin.md): the Digest Admin link and the five tabs. */
export default function Admin({ loaderData }: Route.ComponentProps) {
  // The tabs read their lists afresh once the sample content is gone.
  const [contentVersion, setContentVersion] = useState(0);
  // Read with the page, then as the Whispers tab reads its list.
  const [awaitingWhispers, setAwaitingWhispers] = useState(loaderData.awaitingWhispers);
  // '?edit={id}' (a draft's banner) opens that poem's form.
  const [searchParams] = useSearchParams();
  const editId = Number(searchParams.get("edit")) || undefined;
  return (
    <section className="mx-auto max-w-4xl px-4 py-10">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-serif text-3xl">Content Management</h1>
        <nav aria-label="Admin pages" className="flex flex-wrap gap-4">
          {ADMIN_PAGES.map((page) => (
            <Link
              key={page.to}
              to={page.to}
              className="text-ember-700 underline underline-offset-4"
            >
              {page.label}
            </Link>
          ))}
        </nav>
      </div>
      <SampleContentPanel onRemoved={() => setContentVersion((version) => version + 1)} />
      {awaitingWhispers > 0 && (
        <p role="status" className="mt-4 rounded-lg bg-sky-50 px-4 py-3 text-sm text-sky-900">
          {awaitingWhispers === 1
            ? "1 whisper is awaiting your approval"
            : `${awaitingWhispers} whispers are awaiting your approval`}{" "}
          (Whispers tab).
        </p>
      )}
      <AdminTabs
        key={contentVersion}
        tabs={[
          {
            id: "poems",
            label: "Poems",
            panel: <PoemsTab timeZone={loaderData.timezone} editId={editId} />,
          },
          { id: "embers", label: "Embers", panel: <EmbersTab today={loaderData.today} /> },
          { id: "books", label: "Books", panel: <BooksTab /> },
          { id: "tags", label: "Tags", panel: <TagsTab /> },
          {
            id: "whispers",
            label: awaitingWhispers > 0 ? `Whispers (${awaitingWhispers})` : "Whispers",
            panel: <WhispersTab onAwaitingCount={setAwaitingWhispers} />,
          },
        ]}
      />
    </section>
  );
}
