import { lazy, Suspense, useState } from "react";
import { ALargeSmall } from "./icons.ts";

/** The choices come with the first opening, not with the page (decision 030). */
const ReadingSettingsChoices = lazy(() =>
  import("./reading-settings-choices.tsx").then(({ ReadingSettingsChoices }) => ({
    default: ReadingSettingsChoices,
  })),
);

/**
 * 'Reading settings' on the poem, ember and book-preview pages: text size and theme, applied at
 * once and kept in this browser (app/lib/reading-settings.ts). The server cannot know them, so
 * the choices are drawn in the browser when the reader first opens the panel; it is closed until
 * then. The panel opens over the page rather than in its flow, so opening it never moves the
 * verse below it.
 */
export function ReadingSettings() {
  const [isOpened, setOpened] = useState(false);
  return (
    <details
      className="relative text-sm"
      onToggle={(event) => {
        if (event.currentTarget.open) setOpened(true);
      }}
    >
      <summary className="mx-auto flex w-fit cursor-pointer list-none items-center gap-1.5 rounded-full border border-stone-300 bg-white px-3 py-1.5 text-stone-800 hover:border-ember-700 hover:text-ember-800 [&::-webkit-details-marker]:hidden">
        <ALargeSmall aria-hidden="true" className="h-4 w-4" /> Reading settings
      </summary>
      {isOpened && (
        <div className="absolute top-full left-1/2 z-20 mt-2 w-max max-w-[calc(100vw-2rem)] -translate-x-1/2 rounded-xl border border-stone-200 bg-paper p-4 shadow-lg">
          <Suspense fallback={null}>
            <ReadingSettingsChoices />
          </Suspense>
        </div>
      )}
    </details>
  );
}
