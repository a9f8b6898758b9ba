import { useEffect, useRef, useState } from "react";
import type { EchoCount } from "../../common/schemas/interactions.ts";
import { callApi } from "../lib/api.ts";
import { reportFailure } from "../lib/api-failure.ts";
import { isSavedLocally } from "../lib/local-journal.ts";
import { notifySignInNeeded } from "../lib/sign-in.ts";
import { useAudience } from "../lib/use-current-user.ts";
import { Bookmark, BookmarkCheck, Flame, MessageCircle } from "./icons.ts";

/** What a press does comes with the first press (app/lib/stanza-toggles.ts). */
const loadToggles = () => import("../lib/stanza-toggles.ts");

export interface InteractivePoem {
  id: number;
  slug: string;
  title: string;
  stanzas: string[];
}

/**
 * A stanza action: on a phone a quarter of the row, its icon above its word, so the actions make
 * two even rows; from 768 px a pill with the icon beside the word, all in one centred row.
 */
export const STANZA_ACTION_CLASS =
  "inline-flex basis-[calc((100%-1.5rem)/4)] flex-col items-center justify-center gap-1 rounded-xl border border-stone-300 bg-white px-1 py-2 text-xs text-stone-800 hover:border-ember-700 hover:text-ember-800 md:basis-auto md:flex-row md:gap-1.5 md:rounded-full md:px-2.5 md:py-1.5 md:text-sm";
const actionClass = STANZA_ACTION_CLASS;

/** Echo counts and saved stanzas load after hydration: the page HTML stays the same for everyone. */
export function usePersonalPoemState(slug: string) {
  const isSignedIn = useAudience() !== "anonymous";
  const [echoes, setEchoes] = useState<EchoCount[]>([]);
  const [saved, setSaved] = useState<Set<number>>(new Set());
  useEffect(() => {
    if (!slug) return;
    callApi("listEchoCounts", { params: { slug } })
      .then(setEchoes)
      .catch((error) => console.warn("echo counts could not be loaded", error));
    if (!isSignedIn) return;
    callApi("listSavedStanzas", { params: { slug } })
      .then((indexes) => setSaved(new Set(indexes)))
      .catch((error) => console.warn("saved stanzas could not be loaded", error));
  }, [slug, isSignedIn]);
  return { echoes, setEchoes, saved, setSaved };
}

/**
 * The stanzas whose toggle is on its way. A toggle is a toggle (decision 015): a second press on
 * the same stanza before the first is answered is a double click, absorbed rather than sent as a
 * change of mind. A press on another stanza is the reader's own and goes ahead.
 */
function usePendingStanzas() {
  const pending = useRef(new Set<number>());
  return {
    start(stanzaIndex: number): boolean {
      if (pending.current.has(stanzaIndex)) return false;
      pending.current.add(stanzaIndex);
      return true;
    },
    end(stanzaIndex: number) {
      pending.current.delete(stanzaIndex);
    },
  };
}

export function EchoButton({
  poem,
  stanzaIndex,
  echoes,
  setEchoes,
}: {
  poem: InteractivePoem;
  stanzaIndex: number;
  echoes: EchoCount[];
  setEchoes: (update: (current: EchoCount[]) => EchoCount[]) => void;
}) {
  const isSignedIn = useAudience() !== "anonymous";
  const pending = usePendingStanzas();
  const current = echoes.find((echo) => echo.stanzaIndex === stanzaIndex) ?? {
    stanzaIndex,
    count: 0,
    userHasEchoed: false,
  };

  const setState = (hasEchoed: boolean, count: number) =>
    setEchoes((list) => [
      ...list.filter((echo) => echo.stanzaIndex !== stanzaIndex),
      { stanzaIndex, count, userHasEchoed: hasEchoed },
    ]);

  async function toggle() {
    if (!isSignedIn) {
      notifySignInNeeded("Sign in to add your echo");
      return;
    }
    if (!pending.start(stanzaIndex)) return;
    const before = current;
    // Shown at once; what the server says comes after (app/lib/stanza-toggles.ts).
    setState(!before.userHasEchoed, before.count + (before.userHasEchoed ? -1 : 1));
    try {
      const { sendEcho } = await loadToggles();
      await sendEcho({ slug: poem.slug, stanzaIndex, before, show: setState });
    } catch (error) {
      setState(before.userHasEchoed, before.count);
      reportFailure(error, "reader", "Your echo couldn't be saved right now.");
    } finally {
      pending.end(stanzaIndex);
    }
  }

  return (
    <button
      type="button"
      onClick={toggle}
      aria-pressed={current.userHasEchoed}
      className={actionClass}
    >
      <Flame
        aria-hidden="true"
        className={`h-4 w-4 ${current.userHasEchoed ? "fill-ember-600 text-ember-700" : ""}`}
      />
      {/* The name is what the button shows, "Echo 3": a label hiding the count fails WCAG 2.5.3. */}
      <span>
        Echo{" "}
        <span className="tabular-nums" data-testid="echo-count">
          {current.count}
        </span>
      </span>
    </button>
  );
}

export function JournalButton({
  poem,
  stanzaIndex,
  saved,
  setSaved,
}: {
  poem: InteractivePoem;
  stanzaIndex: number;
  saved: Set<number>;
  setSaved: (update: (current: Set<number>) => Set<number>) => void;
}) {
  const isSignedIn = useAudience() !== "anonymous";
  const pending = usePendingStanzas();
  // One button serves every stanza of the poem, so what this browser's journal holds is kept with
  // the stanza it is about: a save that finishes after the reader has moved on marks its own stanza.
  const [local, setLocal] = useState<{ stanzaIndex: number; isSaved: boolean } | null>(null);
  useEffect(() => {
    if (!isSignedIn) setLocal({ stanzaIndex, isSaved: isSavedLocally(poem.slug, stanzaIndex) });
  }, [isSignedIn, poem.slug, stanzaIndex]);
  const isLocallySaved = local?.stanzaIndex === stanzaIndex && local.isSaved;
  const isSaved = isSignedIn ? saved.has(stanzaIndex) : isLocallySaved;

  const mark = (value: boolean) =>
    setSaved((current) => {
      const next = new Set(current);
      if (value) next.add(stanzaIndex);
      else next.delete(stanzaIndex);
      return next;
    });

  async function toggle() {
    if (!pending.start(stanzaIndex)) return;
    const wasSaved = isSaved;
    // Shown at once for a signed-in reader; what the server says comes after.
    if (isSignedIn) mark(!wasSaved);
    try {
      const toggles = await loadToggles();
      // Anonymous readers keep a journal in this browser (docs/product/interactions.md, Journal).
      if (!isSignedIn) {
        const isNowSaved = toggles.toggleLocalJournalEntry(poem, stanzaIndex, isLocallySaved);
        setLocal((shown) =>
          shown?.stanzaIndex === stanzaIndex ? { stanzaIndex, isSaved: isNowSaved } : shown,
        );
        return;
      }
      await toggles.sendJournalEntry({ slug: poem.slug, stanzaIndex, wasSaved, mark });
    } catch (error) {
      if (isSignedIn) mark(wasSaved);
      reportFailure(error, "reader", "Your journal entry couldn't be saved right now.");
    } finally {
      pending.end(stanzaIndex);
    }
  }

  const Icon = isSaved ? BookmarkCheck : Bookmark;
  return (
    <button
      type="button"
      onClick={toggle}
      aria-label={isSaved ? "Remove from journal" : "Save to journal"}
      className={actionClass}
    >
      <Icon aria-hidden="true" className={`h-4 w-4 ${isSaved ? "text-ember-700" : ""}`} />
      <span aria-hidden="true">{isSaved ? "Saved" : "Save"}</span>
    </button>
  );
}

export function WhispersToggle({ isOpen, onToggle }: { isOpen: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      onClick={onToggle}
      aria-expanded={isOpen}
      aria-label={isOpen ? "Hide whispers" : "Show whispers"}
      className={actionClass}
    >
      <MessageCircle aria-hidden="true" className="h-4 w-4" />
      <span aria-hidden="true">Whispers</span>
    </button>
  );
}
