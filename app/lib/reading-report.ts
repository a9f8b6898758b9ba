import { useEffect } from "react";

/**
 * How far a poem is read (docs/product/insights.md): once per visit the stanza viewer reports
 * which stanzas were on screen for at least REACHED_AFTER_MS, with one `navigator.sendBeacon`
 * when the page is hidden or left. No cookie or storage is added, and a reader whose browser
 * sends Global Privacy Control or Do Not Track sends nothing. Kept apart from the API contract
 * (common/endpoints.ts) on purpose: the poem page loads this, not zod.
 */

const READING_PATH = "/api/insights/reading";
/** How long a stanza must stay on screen to count as reached. */
export const REACHED_AFTER_MS = 2_000;
/** The part of a stanza that must be in view for it to be on screen. */
const ON_SCREEN_RATIO = 0.25;

function hasOptedOut(): boolean {
  const browser = navigator as Navigator & { globalPrivacyControl?: boolean };
  return browser.globalPrivacyControl === true || browser.doNotTrack === "1";
}

function report(body: { poem: string; reached?: number[]; shared?: number }) {
  if (hasOptedOut()) return;
  const text = JSON.stringify(body);
  if (typeof navigator.sendBeacon === "function" && navigator.sendBeacon(READING_PATH, text)) {
    return;
  }
  void fetch(READING_PATH, { method: "POST", body: text, keepalive: true }).catch(() => {});
}

/** The share, copy-link or save-image button was pressed on a stanza. */
export function reportShare(poem: string, index: number) {
  report({ poem, shared: index });
}

/**
 * Watches the viewer's stanzas (`#s-{index}`) and reports the ones reached when the page is
 * hidden, left, or the viewer goes (a move to another page in the app): once per visit.
 */
export function useReadingReport(poem: string | undefined, count: number) {
  useEffect(() => {
    if (!poem || count === 0 || typeof IntersectionObserver !== "function") return;
    const reached = new Set<number>();
    const timers = new Map<number, number>();
    let isSent = false;
    const stopTimer = (index: number) => {
      window.clearTimeout(timers.get(index));
      timers.delete(index);
    };
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const index = Number(entry.target.id.slice("s-".length));
          const isOnScreen = entry.isIntersecting && entry.intersectionRatio >= ON_SCREEN_RATIO;
          if (!isOnScreen) stopTimer(index);
          else if (!reached.has(index) && !timers.has(index)) {
            timers.set(
              index,
              window.setTimeout(() => {
                timers.delete(index);
                if (document.visibilityState === "visible") reached.add(index);
              }, REACHED_AFTER_MS),
            );
          }
        }
      },
      { threshold: [0, ON_SCREEN_RATIO, 1] },
    );
    for (let index = 0; index < count; index += 1) {
      const stanza = document.getElementById(`s-${index}`);
      if (stanza) observer.observe(stanza);
    }
    const send = () => {
      if (isSent) return;
      isSent = true;
      observer.disconnect();
      for (const index of [...timers.keys()]) stopTimer(index);
      report({ poem, reached: [...reached].sort((a, b) => a - b) });
    };
    const onVisibilityChange = () => {
      if (document.visibilityState === "hidden") send();
    };
    window.addEventListener("pagehide", send);
    document.addEventListener("visibilitychange", onVisibilityChange);
    return () => {
      window.removeEventListener("pagehide", send);
      document.removeEventListener("visibilitychange", onVisibilityChange);
      send();
    };
  }, [poem, count]);
}
