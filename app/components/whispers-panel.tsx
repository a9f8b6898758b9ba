import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import { WHISPER_MAX_LENGTH, WHISPER_WARN_REMAINING } from "../../common/constants.ts";
import * as pages from "../../common/pages.ts";
import type { Whisper } from "../../common/schemas/interactions.ts";
import { visibleLength } from "../../common/text.ts";
import { callApi } from "../lib/api.ts";
import { reportFailure } from "../lib/api-failure.ts";
import { notifySignInNeeded } from "../lib/sign-in.ts";
import { notify } from "../lib/toast.ts";
import { useAudience, useCurrentUser } from "../lib/use-current-user.ts";
import { whisperAuthor } from "../lib/whisper-author.ts";
import { FediverseOriginalLink, FediverseWhisperAuthor } from "./fediverse-whisper.tsx";
import { Trash2 } from "./icons.ts";
import type { InteractivePoem } from "./stanza-interactions.tsx";

/*
 * The whispers of one stanza, fetched with its first opening (docs/decisions/030-echo-counts-
 * without-the-contract.md): a page shows no whispers until the reader asks for them.
 */

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
          to={pages.account}
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
      // A whisper the poet holds for approval shows to its writer alone, marked so, until then.
      const { isApproved, ...shared } = whisper;
      onShared(isApproved ? shared : { ...shared, isAwaitingApproval: true });
      if (isApproved) notify("Whisper shared", "Your reflection has been added to this stanza.");
      else notify("Whisper shared", "Only you can see it until the poet approves it.");
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
                  <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-stone-900">
                    <bdi>{whisperAuthor(whisper.user)}</bdi>
                    {whisper.isAwaitingApproval && (
                      <span className="rounded bg-amber-100 px-2 py-0.5 text-xs font-normal text-amber-900">
                        Awaiting approval · only you can see it
                      </span>
                    )}
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
