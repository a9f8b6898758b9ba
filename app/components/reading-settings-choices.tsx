import { useState } from "react";
import {
  READING_SIZES,
  READING_STORAGE_KEY,
  READING_THEMES,
  type ReadingSize,
  type ReadingTheme,
  type SavedReadingSettings,
} from "../lib/reading-settings.ts";

/** The settings in effect: the saved ones the root's script applied, else the defaults. */
function currentReadingSettings(): { size: ReadingSize; theme: ReadingTheme } {
  const { readingSize, theme } = document.documentElement.dataset;
  const systemTheme = window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  return {
    size: READING_SIZES.find((size) => size === readingSize) ?? "default",
    theme: READING_THEMES.find((known) => known === theme) ?? systemTheme,
  };
}

/** Applies the reader's choice at once and keeps it for every later page. */
function chooseReadingSetting(choice: { size: ReadingSize } | { theme: ReadingTheme }) {
  const root = document.documentElement;
  if ("size" in choice) root.dataset.readingSize = choice.size;
  else root.dataset.theme = choice.theme;
  const { size, theme } = currentReadingSettings();
  const saved: SavedReadingSettings = root.dataset.theme ? { size, theme } : { size };
  try {
    localStorage.setItem(READING_STORAGE_KEY, JSON.stringify(saved));
  } catch {
    // Storage blocked or full: the choice still holds on this page.
  }
}

const SIZE_LABELS: Record<ReadingSize, string> = {
  default: "Default",
  larger: "Larger",
  largest: "Largest",
};
const THEME_LABELS: Record<ReadingTheme, string> = { light: "Light", dark: "Dark", sepia: "Sepia" };

/** One setting as a group of radio buttons: arrow keys move between them, as in any radio group. */
function SettingChoices<Value extends string>({
  legend,
  name,
  options,
  labels,
  value,
  onChoose,
}: {
  legend: string;
  name: string;
  options: readonly Value[];
  labels: Record<Value, string>;
  value: Value;
  onChoose: (value: Value) => void;
}) {
  return (
    <fieldset className="flex flex-col items-center">
      <legend className="mx-auto mb-1.5 text-stone-700">{legend}</legend>
      <div className="flex rounded-full border border-stone-300 bg-white p-0.5">
        {options.map((option) => (
          <label
            key={option}
            className="cursor-pointer rounded-full px-3 py-1 text-stone-800 has-checked:bg-ember-700 has-checked:text-white has-focus-visible:outline-3 has-focus-visible:outline-offset-2 has-focus-visible:outline-ember-600"
          >
            <input
              type="radio"
              name={name}
              value={option}
              checked={value === option}
              onChange={() => onChoose(option)}
              className="sr-only"
            />
            {labels[option]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * The panel's two settings, marked with what is in effect. It is shown only in the browser, once
 * the reader opens 'Reading settings' (app/components/reading-settings.tsx).
 */
export function ReadingSettingsChoices() {
  const [current, setCurrent] = useState(currentReadingSettings);
  const choose = (choice: Parameters<typeof chooseReadingSetting>[0]) => {
    chooseReadingSetting(choice);
    setCurrent(currentReadingSettings());
  };
  return (
    <div className="flex flex-wrap justify-center gap-x-8 gap-y-3">
      <SettingChoices
        legend="Text size"
        name="reading-size"
        options={READING_SIZES}
        labels={SIZE_LABELS}
        value={current.size}
        onChoose={(size) => choose({ size })}
      />
      <SettingChoices
        legend="Theme"
        name="reading-theme"
        options={READING_THEMES}
        labels={THEME_LABELS}
        value={current.theme}
        onChoose={(theme) => choose({ theme })}
      />
    </div>
  );
}
