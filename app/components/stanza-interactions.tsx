import { Bookmark, BookmarkCheck, Flame, MessageCircle, Trash2 } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { WHISPER_MAX_LENGTH, WHISPER_WARN_REMAINING } from "../../common/constants.ts";
import type { EchoCount, Whisper } from "../../common/schemas/interactions.ts";
import { stanzaText } from "../../common/stanza.ts";
import { visibleLength } from "../../common/text.ts";
import { callApi } from "../lib/api.ts";
import { reportFailure } from "../lib/api-failure.ts";
import { isSavedLocally, removeLocally, saveLocally } from "../lib/local-journal.ts";
import { notifySignInNeeded } from "../lib/sign-in.ts";
import { notify } from "../lib/toast.ts";
import { useAudience, useCurrentUser } from "../lib/use-current-user.ts";
import { FediverseOriginalLink, FediverseWhisperAuthor } from "./fediverse-whisper.tsx";

export interface InteractivePoem {
  id: number;
  slug: string;
  title: string;
  stanzas: string[];
}

const actionClass =
  "inline-flex items-center gap-1.5 rounded-full border border-stone-300 bg-white px-3 py-1.5 text-sm text-stone-800 hover:border-ember-700 hover:text-ember-800";

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
  // A toggle is a toggle (decision 015): a second click while the first is on its way is a double
  // click, absorbed here rather than sent as a change of mind.
  const isPending = useRef(false);
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
    if (isPending.current) return;
    isPending.current = true;
    const before = current;
    const countIf = (hasEchoed: boolean) =>
      before.count + Number(hasEchoed) - Number(before.userHasEchoed);
    const optimistic = !before.userHasEchoed;
    setState(optimistic, countIf(optimistic));
    try {
      const { added } = await callApi("toggleEcho", {
        params: { slug: poem.slug },
        body: { stanzaIndex },
      });
      // Another tab or device may have toggled meanwhile: show the server's answer.
      if (added !== optimistic) setState(added, countIf(added));
      if (added) notify("Echo added", "Your appreciation has been quietly shared.");
    } catch (error) {
      setState(before.userHasEchoed, before.count);
      reportFailure(error, "reader", "Your echo couldn't be saved right now.");
    } finally {
      isPending.current = false;
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
      <span>Echo</span>
      <span className="tabular-nums" data-testid="echo-count">
        {current.count}
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
  // A toggle, as the echo's (decision 015): a click while the last one is on its way is a double
  // click, absorbed here rather than sent as a change of mind.
  const isPending = useRef(false);
  const [isLocallySaved, setLocallySaved] = useState(false);
  useEffect(() => {
    if (!isSignedIn) setLocallySaved(isSavedLocally(poem.slug, stanzaIndex));
  }, [isSignedIn, poem.slug, stanzaIndex]);
  const isSaved = isSignedIn ? saved.has(stanzaIndex) : isLocallySaved;

  const mark = (value: boolean) =>
    setSaved((current) => {
      const next = new Set(current);
      if (value) next.add(stanzaIndex);
      else next.delete(stanzaIndex);
      return next;
    });

  async function toggle() {
    if (!isSignedIn) {
      // Anonymous readers keep a journal in this browser (docs/product/interactions.md, Journal).
      if (isLocallySaved) {
        removeLocally(poem.slug, stanzaIndex);
        setLocallySaved(false);
        notify("Removed from journal", "This stanza has been removed from your local journal.");
      } else {
        saveLocally({
          poemId: poem.id,
          poemSlug: poem.slug,
          poemTitle: poem.title,
          stanzaIndex,
          stanzaText: stanzaText(poem.stanzas[stanzaIndex] ?? ""),
        });
        setLocallySaved(true);
        notify("Saved to journal", "This verse has been saved locally.");
      }
      return;
    }
    if (isPending.current) return;
    isPending.current = true;
    const wasSaved = isSaved;
    mark(!wasSaved);
    try {
      const { added } = await callApi("toggleJournalEntry", {
        body: { poemSlug: poem.slug, stanzaIndex },
      });
      mark(added);
      if (added) notify("Saved to journal", "This stanza has been saved to your Ember Journal.");
      else notify("Removed from journal", "This stanza has been removed from your journal.");
    } catch (error) {
      mark(wasSaved);
      reportFailure(error, "reader", "Your journal entry couldn't be saved right now.");
    } finally {
      isPending.current = false;
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

/** 'Ada L.', or 'Ada', or 'Anonymous' (docs/product/interactions.md, Whispers). */
export function whisperAuthor({ firstName, lastName }: Whisper["user"]): string {
  // The first character as the reader sees it, not half of a surrogate pair.
  if (firstName && lastName) return `${firstName} ${Array.from(lastName)[0]}.`;
  return firstName || "Anonymous";
}

/** Where "Not now" on the name prompt is remembered: in this browser, for that account. */
const namePromptDismissedKey = (userId: string) => `emberNamePromptDismissed:${userId}`;

function isNamePromptDismissed(userId: string): boolean {
  try {
    return window.localStorage.getItem(namePromptDismissedKey(userId)) !== null;
  } catch {
    return false;
  }
}

/**
 * After a reader with no name shares a whisper: a small offer to add one, which blocks nothing.
 * "Not now" is remembered in this browser for this account, so it is not asked again here; the
 * footer's Account link stays the way to a name.
 */
function NamePrompt({ userId, onClose }: { userId: string; onClose: () => void }) {
  function dismiss() {
    try {
      window.localStorage.setItem(namePromptDismissedKey(userId), new Date().toISOString());
    } catch (error) {
      console.warn("the name prompt's dismissal could not be kept", error);
    }
    onClose();
  }
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-ember-50 px-4 py-3 text-sm text-ember-900"
    >
      <p>Your whisper is signed “Anonymous”. Add a name so readers know it is yours?</p>
      <div className="flex gap-2">
        <Link
          to="/account"
          className="rounded-full bg-ember-700 px-3 py-1 font-medium text-white hover:bg-ember-800"
        >
          Add a name
        </Link>
        <button
          type="button"
          onClick={dismiss}
          className="rounded-full px-3 py-1 text-ember-900 hover:bg-ember-100"
        >
          Not now
        </button>
      </div>
    </div>
  );
}

/** Keeps at most WHISPER_MAX_LENGTH characters as the reader sees them. */
function limitWhisper(text: string): string {
  if (visibleLength(text) <= WHISPER_MAX_LENGTH) return text;
  const graphemes = [...new Intl.Segmenter("en", { granularity: "grapheme" }).segment(text)];
  return graphemes
    .slice(0, WHISPER_MAX_LENGTH)
    .map((part) => part.segment)
    .join("");
}

function WhisperComposer({
  poem,
  stanzaIndex,
  onShared,
}: {
  poem: InteractivePoem;
  stanzaIndex: number;
  onShared: (whisper: Whisper) => void;
}) {
  const isSignedIn = useAudience() !== "anonymous";
  const [isOpen, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [isPending, setPending] = useState(false);
  const trimmed = text.trim();
  const remaining = WHISPER_MAX_LENGTH - visibleLength(text);
  const canShare = trimmed.length > 0 && visibleLength(trimmed) <= WHISPER_MAX_LENGTH && !isPending;

  const close = () => {
    setOpen(false);
    setText("");
  };

  async function share() {
    if (!isSignedIn) {
      notifySignInNeeded("Sign in to share your whisper");
      return;
    }
    setPending(true);
    try {
      const whisper = await callApi("createWhisper", {
        params: { slug: poem.slug },
        body: { stanzaIndex, body: trimmed },
      });
      // A whisper the poet holds for approval is hidden until then: not in the list yet.
      if (whisper.isApproved) {
        onShared(whisper);
        notify("Whisper shared", "Your reflection has been added to this stanza.");
      } else {
        notify("Whisper shared", "It will appear once the poet has read it.");
      }
      close();
    } catch (error) {
      reportFailure(error, "reader", "Your whisper couldn't be shared right now.");
    } finally {
      setPending(false);
    }
  }

  if (!isOpen) {
    return (
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-label="Write a whisper"
        className="w-full rounded-lg border border-dashed border-stone-400 px-4 py-3 text-left text-stone-600 hover:border-ember-700"
      >
        Write a whisper…
      </button>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={`whisper-${stanzaIndex}`} className="sr-only">
        Your whisper
      </label>
      <textarea
        id={`whisper-${stanzaIndex}`}
        // biome-ignore lint/a11y/noAutofocus: the reader just asked to write.
        autoFocus
        rows={3}
        value={text}
        onChange={(event) => setText(limitWhisper(event.target.value))}
        aria-describedby={`whisper-${stanzaIndex}-remaining`}
        className="w-full rounded-lg border border-stone-400 bg-white px-3 py-2"
      />
      <div className="flex items-center justify-between gap-3">
        <span
          id={`whisper-${stanzaIndex}-remaining`}
          className={`text-xs ${remaining < WHISPER_WARN_REMAINING ? "font-semibold text-ember-800" : "text-stone-600"}`}
        >
          {remaining} characters remaining
        </span>
        <div className="flex gap-2">
          <button
            type="button"
            onClick={close}
            className="rounded-full px-4 py-1.5 text-sm hover:bg-stone-100"
          >
            Cancel
          </button>
          <button
            type="button"
            onClick={share}
            disabled={!canShare}
            className="rounded-full bg-ember-700 px-4 py-1.5 text-sm font-medium text-white hover:bg-ember-800 disabled:opacity-50"
          >
            Share
          </button>
        </div>
      </div>
    </div>
  );
}

export function WhispersPanel({
  poem,
  stanzaIndex,
}: {
  poem: InteractivePoem;
  stanzaIndex: number;
}) {
  const user = useCurrentUser();
  const [whispers, setWhispers] = useState<Whisper[] | null>(null);
  /** The reader the name prompt is shown to, once they shared a whisper without a name. */
  const [namePromptFor, setNamePromptFor] = useState<string | null>(null);

  const load = useCallback(() => {
    setWhispers(null);
    callApi("listWhispers", { params: { slug: poem.slug, stanzaIndex } })
      .then(setWhispers)
      .catch((error) => {
        console.warn("whispers could not be loaded", error);
        setWhispers([]);
      });
  }, [poem.slug, stanzaIndex]);
  useEffect(load, [load]);

  async function remove(id: number) {
    try {
      await callApi("deleteWhisper", { params: { id } });
      setWhispers((current) => current?.filter((whisper) => whisper.id !== id) ?? null);
      notify("Whisper deleted", "Your whisper has been removed.");
    } catch (error) {
      reportFailure(error, "reader", "Your whisper couldn't be deleted right now.");
    }
  }

  return (
    <section
      aria-labelledby="whispers-heading"
      className="flex flex-col gap-4 rounded-xl border border-stone-200 bg-white p-5"
    >
      <div>
        <h2 id="whispers-heading" className="font-serif text-xl text-stone-900">
          Whispers on Stanza {stanzaIndex + 1}
        </h2>
        <p className="text-sm text-stone-600">
          Quiet reflections and gentle thoughts shared by readers
        </p>
      </div>
      <WhisperComposer
        key={stanzaIndex}
        poem={poem}
        stanzaIndex={stanzaIndex}
        onShared={(whisper) => {
          setWhispers((current) => [whisper, ...(current ?? [])]);
          if (!whisper.user.firstName && !isNamePromptDismissed(whisper.userId)) {
            setNamePromptFor(whisper.userId);
          }
        }}
      />
      {namePromptFor && (
        <NamePrompt userId={namePromptFor} onClose={() => setNamePromptFor(null)} />
      )}
      {whispers === null ? (
        <p className="text-sm text-stone-600">Loading whispers…</p>
      ) : whispers.length === 0 ? (
        <p className="text-sm text-stone-600">No whispers yet. Be the first to leave one.</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {whispers.map((whisper) => (
            <li
              key={whisper.id}
              className="flex items-start justify-between gap-3 border-t border-stone-100 pt-3"
            >
              {whisper.fediverse ? (
                <div className="min-w-0">
                  <FediverseWhisperAuthor origin={whisper.fediverse} />
                  <p className="mt-1 whitespace-pre-line break-words text-stone-800">
                    {whisper.text}
                  </p>
                  <FediverseOriginalLink origin={whisper.fediverse} />
                </div>
              ) : (
                <div>
                  <p className="text-sm font-medium text-stone-900">
                    <bdi>{whisperAuthor(whisper.user)}</bdi>
                  </p>
                  <p className="whitespace-pre-line break-words text-stone-800">{whisper.text}</p>
                </div>
              )}
              {user?.id === whisper.userId && (
                <button
                  type="button"
                  onClick={() => remove(whisper.id)}
                  aria-label="Delete whisper"
                  className="rounded-full p-1.5 text-stone-600 hover:bg-stone-100 hover:text-red-800"
                >
                  <Trash2 aria-hidden="true" className="h-4 w-4" />
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
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
