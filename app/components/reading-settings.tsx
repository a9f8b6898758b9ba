import { ALargeSmall } from "lucide-react";
import { useEffect, useState } from "react";
import {
  chooseReadingSetting,
  currentReadingSettings,
  READING_SIZES,
  READING_THEMES,
  type ReadingSize,
  type ReadingTheme,
} from "../lib/reading-settings.ts";

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
  value: Value | undefined;
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
 * 'Reading settings' on the poem, ember and book-preview pages: text size and theme, applied at
 * once and kept in this browser (app/lib/reading-settings.ts). The server cannot know them, so
 * the choices are marked once the page has hydrated; the panel is closed until then.
 */
export function ReadingSettings() {
  const [current, setCurrent] = useState<ReturnType<typeof currentReadingSettings>>();
  useEffect(() => setCurrent(currentReadingSettings()), []);
  const choose = (choice: Parameters<typeof chooseReadingSetting>[0]) => {
    chooseReadingSetting(choice);
    setCurrent(currentReadingSettings());
  };
  return (
    <details className="text-sm">
      <summary className="mx-auto flex w-fit cursor-pointer list-none items-center gap-1.5 rounded-full border border-stone-300 bg-white px-3 py-1.5 text-stone-800 hover:border-ember-700 hover:text-ember-800 [&::-webkit-details-marker]:hidden">
        <ALargeSmall aria-hidden="true" className="h-4 w-4" /> Reading settings
      </summary>
      <div className="mt-3 flex flex-wrap justify-center gap-x-8 gap-y-3">
        <SettingChoices
          legend="Text size"
          name="reading-size"
          options={READING_SIZES}
          labels={SIZE_LABELS}
          value={current?.size}
          onChoose={(size) => choose({ size })}
        />
        <SettingChoices
          legend="Theme"
          name="reading-theme"
          options={READING_THEMES}
          labels={THEME_LABELS}
          value={current?.theme}
          onChoose={(theme) => choose({ theme })}
        />
      </div>
    </details>
  );
}
