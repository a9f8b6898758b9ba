import {
  lazy,
  Suspense,
  type TouchEvent,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { useLocation } from "react-router";
import { SMALL_SCREEN_MAX_PX, SWIPE_THRESHOLD_PX } from "../../common/constants.ts";
import * as paths from "../../common/paths.ts";
import { clampStanzaIndex, stanzaLines } from "../../common/stanza.ts";
import { STANZA_CHOSEN_EVENT } from "../../common/stanza-events.ts";
import { reportShare, useReadingReport } from "../lib/reading-report.ts";
import { notifyError } from "../lib/toast.ts";
import { useIsHydrated } from "../lib/use-is-hydrated.ts";
import { ChevronLeft, ChevronRight, Copy, Download, Link2, Share2 } from "./icons.ts";
import { PositionDots } from "./position-dots.tsx";
import {
  EchoButton,
  JournalButton,
  STANZA_ACTION_CLASS,
  usePersonalPoemState,
  WhispersToggle,
} from "./stanza-interactions.tsx";
import { VerseLines } from "./verse.tsx";

/**
 * Share, Save image, Copy link and Copy Stanza act only when pressed, so their code (the share
 * image's drawing with it) comes as the pointer or focus reaches the stanza actions, or with the
 * first press.
 */
const loadStanzaSharing = () => import("../lib/stanza-sharing.ts");
type StanzaSharing = Awaited<ReturnType<typeof loadStanzaSharing>>;
type SharingAction = "shareStanza" | "saveStanzaImage" | "copyStanzaLink" | "copyStanza";

/** Whispers are read on a reader's request, so their code comes with the first opening. */
const WhispersPanel = lazy(() =>
  import("./whispers-panel.tsx").then(({ WhispersPanel }) => ({ default: WhispersPanel })),
);

export interface ViewerPoem {
  id?: number;
  slug?: string;
  title: string;
  stanzas: string[];
}

const HASH_PATTERN = /^#s-(-?\d+)$/;

/** Whether an address's hash names a stanza (#s-{index}), as a link to one does. */
export function isStanzaAddress(hash: string): boolean {
  return HASH_PATTERN.test(hash);
}

function indexFromHash(hash: string, count: number): number {
  const match = HASH_PATTERN.exec(hash);
  return match ? clampStanzaIndex(match[1], count) : 0;
}

/** Left or up: previous; right or down: next; Home: first; End: last (docs/product/reading.md). */
function keyTarget(key: string, index: number, count: number): number | undefined {
  switch (key) {
    case "ArrowLeft":
    case "ArrowUp":
      return index - 1;
    case "ArrowRight":
    case "ArrowDown":
      return index + 1;
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return undefined;
  }
}

/** A keypress inside a text field belongs to the field, not the viewer. */
function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))
  );
}

/**
 * One stanza at a time (docs/product/reading.md): 'N of M' with a progress bar, arrows hidden
 * at the ends, a dot per stanza, keys, swipe under 768 px, and the position in #s-{index}.
 * The server renders every stanza, so the poem reads without JavaScript; with JavaScript only
 * the current one shows (html[data-js] .stanza-inactive, app.css).
 */
export function StanzaViewer({
  poem,
  siteName,
  publicUrl,
}: {
  poem: ViewerPoem;
  siteName: string;
  publicUrl: string;
}) {
  const count = poem.stanzas.length;
  // A link in the site opens the viewer at its stanza from the first render, so the stanza is
  // there when the router scrolls to it; a page from the server starts at the first, as its HTML
  // did, and reads the address below.
  const { hash } = useLocation();
  const isHydrated = useIsHydrated();
  const [index, setIndex] = useState(() => (isHydrated ? indexFromHash(hash, count) : 0));
  const [isWhispersOpen, setWhispersOpen] = useState(false);
  const interactive =
    poem.slug && poem.id !== undefined ? { ...poem, slug: poem.slug, id: poem.id } : undefined;
  const personal = usePersonalPoemState(poem.slug ?? "");
  const touchStart = useRef<{ x: number; y: number } | null>(null);
  const stanzaCard = useRef<HTMLElement>(null);
  const isCardAbove = useIsScrolledAbove(stanzaCard);
  useReadingReport(poem.slug, count);

  const goTo = useCallback(
    (next: number) => {
      const bounded = clampStanzaIndex(next, count);
      setIndex(bounded);
      window.history.replaceState(window.history.state, "", `#s-${bounded}`);
      // The reader moved: a reading that follows the viewer seeks there (poem-audio.tsx).
      window.dispatchEvent(new CustomEvent(STANZA_CHOSEN_EVENT, { detail: bounded }));
    },
    [count],
  );

  // Before the first paint after hydration, so the stanza the CSS showed is not swapped for the
  // first one for a frame.
  useLayoutEffect(() => {
    const readHash = () => setIndex(indexFromHash(window.location.hash, count));
    readHash();
    window.addEventListener("hashchange", readHash);
    return () => window.removeEventListener("hashchange", readHash);
  }, [count]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      const next = keyTarget(event.key, index, count);
      if (next === undefined) return;
      event.preventDefault();
      goTo(next);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [index, count, goTo]);

  if (count === 0) {
    return <p className="py-16 text-center text-stone-600">No stanzas available</p>;
  }

  const onTouchStart = (event: TouchEvent) => {
    const touch = event.touches[0];
    touchStart.current = touch ? { x: touch.clientX, y: touch.clientY } : null;
  };
  const onTouchEnd = (event: TouchEvent) => {
    const start = touchStart.current;
    const touch = event.changedTouches[0];
    touchStart.current = null;
    if (!start || !touch || window.innerWidth >= SMALL_SCREEN_MAX_PX) return;
    const dx = touch.clientX - start.x;
    const dy = touch.clientY - start.y;
    if (Math.abs(dx) > SWIPE_THRESHOLD_PX && Math.abs(dx) > Math.abs(dy))
      goTo(dx < 0 ? index + 1 : index - 1);
  };

  const number = index + 1;
  const current = poem.stanzas[index] ?? "";
  const shareLink = poem.slug
    ? new URL(paths.sharedStanza(poem.slug, index), publicUrl).toString()
    : undefined;

  async function runSharing(action: SharingAction) {
    if (!shareLink) return;
    // Share, Save image and Copy link each count a share of the stanza (docs/product/insights.md).
    if (poem.slug && action !== "copyStanza") reportShare(poem.slug, index);
    let sharing: StanzaSharing;
    try {
      sharing = await loadStanzaSharing();
    } catch {
      notifyError("Sharing failed", "Check your connection and try again.");
      return;
    }
    await sharing[action]({
      poemTitle: poem.title,
      siteName,
      stanza: current,
      number,
      link: shareLink,
    });
  }

  const actionClass = STANZA_ACTION_CLASS;

  return (
    <div className="flex flex-col gap-6">
      <section
        ref={stanzaCard}
        aria-roledescription="stanza viewer"
        aria-label={`${poem.title}, stanzas`}
        onTouchStart={onTouchStart}
        onTouchEnd={onTouchEnd}
        // On phones the stanza spans the screen with small padding and the arrows below it, so a
        // 40-character line fits at 375 px; from 768 px it is a card with the arrows at its sides.
        className="relative -mx-4 flex min-h-[16rem] items-center justify-center border-y border-stone-200 bg-white px-4 pt-8 pb-16 shadow-sm md:mx-0 md:min-h-[20rem] md:rounded-xl md:border md:px-12 md:py-10"
      >
        {index > 0 && (
          <button
            type="button"
            onClick={() => goTo(index - 1)}
            aria-label="Previous stanza"
            className="absolute bottom-2 left-2 rounded-full p-2 text-stone-700 hover:bg-stone-100 md:bottom-auto md:top-1/2 md:-translate-y-1/2"
          >
            <ChevronLeft aria-hidden="true" className="h-6 w-6" />
          </button>
        )}
        <ol className="w-full max-w-prose list-none text-left">
          {poem.stanzas.map((stanza, position) => (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: a stanza's position is its identity.
              key={position}
              // The address's #s-{index} is this element, so a page opened at a stanza shows it
              // (app.css) and scrolls to it before any script has run.
              id={`s-${position}`}
              aria-hidden={position === index ? undefined : true}
              className={`font-serif reading-text-lg leading-relaxed text-stone-900 md:reading-text-2xl ${position === index ? "" : "stanza-inactive"}`}
            >
              <VerseLines lines={stanzaLines(stanza)} />
            </li>
          ))}
        </ol>
        {index < count - 1 && (
          <button
            type="button"
            onClick={() => goTo(index + 1)}
            aria-label="Next stanza"
            className="absolute right-2 bottom-2 rounded-full p-2 text-stone-700 hover:bg-stone-100 md:bottom-auto md:top-1/2 md:-translate-y-1/2"
          >
            <ChevronRight aria-hidden="true" className="h-6 w-6" />
          </button>
        )}
      </section>

      <div className="flex flex-col gap-6">
        {/*
         * The small-screen title bar takes no room and shows only once the stanza card has scrolled
         * above it, so it never covers a line of verse nor repeats the title in the first screen.
         * It sticks over what follows the card: the counter, the actions and the whispers.
         */}
        <div aria-hidden="true" className="sticky top-16 z-10 -mb-6 h-0 md:hidden">
          <p
            className={`-mx-4 border-b border-stone-200 bg-paper/95 px-4 py-2 font-serif text-stone-900 ${isCardAbove ? "" : "invisible"}`}
          >
            {poem.title}
          </p>
        </div>
        <div className="flex flex-col items-center gap-3">
          <p aria-live="polite" className="text-sm text-stone-700">
            {number} of {count}
          </p>
          <div
            role="progressbar"
            aria-label="Reading progress"
            aria-valuemin={1}
            aria-valuemax={count}
            aria-valuenow={number}
            className="h-1 w-48 overflow-hidden rounded bg-stone-200"
          >
            <div
              className="h-full bg-ember-700 transition-[width]"
              style={{ width: `${(number / count) * 100}%` }}
            />
          </div>
          <PositionDots count={count} current={index} noun="stanza" onSelect={goTo} />
          <p className="hidden text-xs text-stone-600 md:block">
            Use arrow keys, Home, or End to navigate
          </p>
        </div>

        {interactive && (
          <div
            // Four to a row on a phone (two even rows of the seven), one centred row when wide.
            className="flex flex-wrap justify-center gap-2"
            aria-label="Stanza actions"
            role="toolbar"
            onPointerEnter={loadStanzaSharing}
            onFocus={loadStanzaSharing}
          >
            <EchoButton
              poem={interactive}
              stanzaIndex={index}
              echoes={personal.echoes}
              setEchoes={personal.setEchoes}
            />
            <button type="button" onClick={() => runSharing("shareStanza")} className={actionClass}>
              <Share2 aria-hidden="true" className="h-4 w-4" /> Share
            </button>
            <button
              type="button"
              onClick={() => runSharing("saveStanzaImage")}
              className={actionClass}
            >
              <Download aria-hidden="true" className="h-4 w-4" /> Save image
            </button>
            <button
              type="button"
              onClick={() => runSharing("copyStanzaLink")}
              className={actionClass}
            >
              <Link2 aria-hidden="true" className="h-4 w-4" /> Copy link
            </button>
            <JournalButton
              poem={interactive}
              stanzaIndex={index}
              saved={personal.saved}
              setSaved={personal.setSaved}
            />
            <WhispersToggle
              isOpen={isWhispersOpen}
              onToggle={() => setWhispersOpen(!isWhispersOpen)}
            />
            <button type="button" onClick={() => runSharing("copyStanza")} className={actionClass}>
              <Copy aria-hidden="true" className="h-4 w-4" /> Copy Stanza
            </button>
          </div>
        )}
        {interactive && isWhispersOpen && (
          <Suspense fallback={<p className="text-sm text-stone-600">Loading whispers…</p>}>
            <WhispersPanel key={index} poem={interactive} stanzaIndex={index} />
          </Suspense>
        )}
      </div>
    </div>
  );
}

/** Whether the element has scrolled wholly above the sticky header (small screens only need it). */
function useIsScrolledAbove(element: React.RefObject<HTMLElement | null>): boolean {
  const [isAbove, setAbove] = useState(false);
  useEffect(() => {
    const target = element.current;
    if (!target) return;
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (entry) setAbove(!entry.isIntersecting && entry.boundingClientRect.bottom <= 64);
      },
      // The site header (4rem) sticks over the page's top.
      { rootMargin: "-64px 0px 0px 0px" },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [element]);
  return isAbove;
}
