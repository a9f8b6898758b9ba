import { useCallback, useEffect, useState } from "react";
import { Link, useRevalidator } from "react-router";
import { formatDate } from "../../common/dates.ts";
import * as pages from "../../common/pages.ts";
import * as paths from "../../common/paths.ts";
import { stanzaLines } from "../../common/stanza.ts";
import { Cloud, HardDrive, Trash2 } from "../components/icons.ts";
import { VerseLines } from "../components/verse.tsx";
import { appContext } from "../lib/app-context.ts";
import { sharedWithAnonymousReaders } from "../lib/cache-policy.ts";
import { announceSync, entries, syncLocalJournal } from "../lib/journal-sync.ts";
import { type LocalJournalEntry, readLocalJournal, removeLocally } from "../lib/local-journal.ts";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import { notify } from "../lib/toast.ts";
import { useIsHydrated } from "../lib/use-is-hydrated.ts";
import { useJournalAutoSync } from "../lib/use-journal-sync.ts";
import type { Route } from "./+types/journal";

/** Anonymous readers all get the same page; a signed-in reader's holds their cloud journal. */
export const handle = sharedWithAnonymousReaders;

export async function loader({ context }: Route.LoaderArgs) {
  const { services, actor } = context.get(appContext);
  return { cloud: actor ? await services.interactions.listJournal(actor) : null };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(siteFromMatches(matches), {
    title: "Journal",
    description: "The stanzas you saved.",
    path: pages.journal,
  });
}

export default function Journal({ loaderData }: Route.ComponentProps) {
  const { cloud } = loaderData;
  const isSignedIn = cloud !== null;
  const revalidator = useRevalidator();
  const [local, setLocal] = useState<LocalJournalEntry[]>([]);
  const [isSyncing, setSyncing] = useState(false);
  // The server cannot know the reader's time zone: its HTML gives the day in UTC, and the reader's
  // own day replaces it once the page has hydrated.
  const dateZone = useIsHydrated() ? "local" : "utc";

  const refresh = useCallback(() => {
    setLocal(readLocalJournal());
    revalidator.revalidate();
  }, [revalidator]);

  useEffect(() => {
    setLocal(readLocalJournal());
    const onChange = () => setLocal(readLocalJournal());
    window.addEventListener("ember-journal-change", onChange);
    return () => window.removeEventListener("ember-journal-change", onChange);
  }, []);
  useJournalAutoSync(isSignedIn, "journal-page", refresh);

  const unsynced = local.filter((entry) => !entry.synced);

  async function syncNow() {
    setSyncing(true);
    announceSync(await syncLocalJournal(), "journal-page");
    setSyncing(false);
    refresh();
  }

  function remove(entry: LocalJournalEntry) {
    removeLocally(entry.poemSlug, entry.stanzaIndex);
    notify("Removed from local journal");
  }

  const isEmpty = (cloud?.length ?? 0) === 0 && local.length === 0;
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-8">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-serif text-4xl text-stone-900">Journal</h1>
        {isSignedIn && (
          <Link
            to={pages.account}
            className="text-sm text-ember-800 underline hover:text-ember-900"
          >
            Your account
          </Link>
        )}
      </div>
      {/* Where the journal is kept: the header calls it 'Journal (local)' until sign-in. */}
      <p className="-mt-4 text-stone-700" data-testid="journal-kept">
        {isSignedIn ? (
          "Kept in your account (Cloud): the same journal on every device you sign in on."
        ) : (
          <>
            Kept in this browser only (Local).{" "}
            <a href="/api/login" className="text-ember-800 underline hover:text-ember-900">
              Sign in
            </a>{" "}
            to keep it in your account and read it on any device.
          </>
        )}
      </p>
      {isSignedIn && unsynced.length > 0 && (
        <div
          role="status"
          className="flex flex-wrap items-center justify-between gap-3 rounded-xl bg-ember-50 p-4"
        >
          <p className="text-ember-900">
            {unsynced.length} local {entries(unsynced.length)} ready to sync
          </p>
          <button
            type="button"
            onClick={syncNow}
            disabled={isSyncing}
            className="rounded-full bg-ember-700 px-4 py-1.5 text-sm font-medium text-white hover:bg-ember-800 disabled:opacity-60"
          >
            {isSyncing ? "Syncing..." : "Sync Now"}
          </button>
        </div>
      )}
      {isEmpty ? (
        <div className="py-16 text-center">
          <p className="font-serif text-2xl">Your Journal Awaits</p>
          <p className="mt-2 text-stone-700">
            Save a stanza while you read and it will wait for you here.
          </p>
          <Link
            to={pages.poetry}
            className="mt-6 inline-block rounded-full bg-ember-700 px-5 py-2 text-white hover:bg-ember-800"
          >
            Explore Poetry
          </Link>
        </div>
      ) : (
        <>
          {cloud && cloud.length > 0 && (
            <section aria-labelledby="cloud-journal" className="flex flex-col gap-3">
              <h2 id="cloud-journal" className="font-serif text-2xl">
                Saved to your account
              </h2>
              <ul className="flex flex-col gap-3">
                {cloud.map((entry) => {
                  const stanza = entry.poem.stanzas[entry.stanzaIndex];
                  return (
                    <li key={entry.id} className="rounded-xl border border-stone-200 bg-white p-5">
                      <Link
                        to={paths.stanza(entry.poem.slug, entry.stanzaIndex)}
                        className="flex flex-col gap-2 hover:text-ember-800"
                      >
                        <span className="flex items-center justify-between gap-2">
                          <span className="font-serif text-xl">{entry.poem.title}</span>
                          <span className="inline-flex items-center gap-1 rounded-full bg-sky-100 px-2 py-0.5 text-xs text-sky-900">
                            <Cloud aria-hidden="true" className="h-3 w-3" /> Cloud
                          </span>
                        </span>
                        <span className="font-serif text-stone-800">
                          {stanza ? <VerseLines lines={stanzaLines(stanza)} /> : "Stanza not found"}
                        </span>
                        <span className="text-xs text-stone-600">
                          Saved {formatDate(entry.createdAt, dateZone)} • Stanza{" "}
                          {entry.stanzaIndex + 1}
                        </span>
                      </Link>
                    </li>
                  );
                })}
              </ul>
            </section>
          )}
          {local.length > 0 && (
            <section aria-labelledby="local-journal" className="flex flex-col gap-3">
              <h2 id="local-journal" className="font-serif text-2xl">
                Saved in this browser
              </h2>
              <ul className="flex flex-col gap-3">
                {local.map((entry) => (
                  <li
                    key={`${entry.poemSlug}#${entry.stanzaIndex}`}
                    className="flex items-start justify-between gap-3 rounded-xl border border-stone-200 bg-white p-5"
                  >
                    <Link
                      to={paths.stanza(entry.poemSlug, entry.stanzaIndex)}
                      className="flex flex-col gap-2 hover:text-ember-800"
                    >
                      <span className="flex items-center gap-2">
                        <span className="font-serif text-xl">{entry.poemTitle}</span>
                        <span className="inline-flex items-center gap-1 rounded-full bg-stone-200 px-2 py-0.5 text-xs text-stone-800">
                          <HardDrive aria-hidden="true" className="h-3 w-3" /> Local
                        </span>
                      </span>
                      <span className="font-serif text-stone-800">
                        <VerseLines lines={stanzaLines(entry.stanzaText)} />
                      </span>
                      <span className="text-xs text-stone-600">
                        Saved {formatDate(entry.timestamp, dateZone)} • Stanza{" "}
                        {entry.stanzaIndex + 1}
                      </span>
                    </Link>
                    <button
                      type="button"
                      onClick={() => remove(entry)}
                      aria-label={`Delete ${entry.poemTitle}, stanza ${entry.stanzaIndex + 1}`}
                      className="rounded-full p-1.5 text-stone-600 hover:bg-stone-100 hover:text-red-800"
                    >
                      <Trash2 aria-hidden="true" className="h-4 w-4" />
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </section>
  );
}
