import { type KeyboardEvent, type ReactNode, useRef, useState } from "react";

export interface AdminTab {
  id: string;
  label: string;
  panel: ReactNode;
}

/**
 * The admin area's tabs, with the WAI-ARIA tabs pattern: arrow keys, Home and End move between
 * tabs; only the chosen panel is rendered.
 */
export function AdminTabs({ tabs }: { tabs: AdminTab[] }) {
  const [selected, setSelected] = useState(tabs[0]?.id ?? "");
  const buttons = useRef<Record<string, HTMLButtonElement | null>>({});

  function onKeyDown(event: KeyboardEvent) {
    const index = tabs.findIndex((tab) => tab.id === selected);
    const next = {
      ArrowRight: (index + 1) % tabs.length,
      ArrowLeft: (index - 1 + tabs.length) % tabs.length,
      Home: 0,
      End: tabs.length - 1,
    }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const tab = tabs[next];
    if (!tab) return;
    setSelected(tab.id);
    buttons.current[tab.id]?.focus();
  }

  const current = tabs.find((tab) => tab.id === selected);
  return (
    <div className="mt-6">
      <div
        role="tablist"
        aria-label="Content"
        // All five tabs fit a 375 px phone side by side; none is scrolled out of sight.
        className="flex justify-between border-b border-stone-300 sm:justify-start sm:gap-1"
        onKeyDown={onKeyDown}
      >
        {tabs.map((tab) => (
          <button
            key={tab.id}
            ref={(element) => {
              buttons.current[tab.id] = element;
            }}
            type="button"
            role="tab"
            id={`tab-${tab.id}`}
            aria-selected={tab.id === selected}
            aria-controls={`panel-${tab.id}`}
            tabIndex={tab.id === selected ? 0 : -1}
            onClick={() => setSelected(tab.id)}
            className={`-mb-px border-b-2 px-2 py-2 text-sm font-medium whitespace-nowrap sm:px-4 ${
              tab.id === selected
                ? "border-ember-700 text-ember-800"
                : "border-transparent text-stone-700 hover:text-stone-900"
            }`}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {current && (
        <div
          role="tabpanel"
          id={`panel-${current.id}`}
          aria-labelledby={`tab-${current.id}`}
          className="pt-6"
        >
          {current.panel}
        </div>
      )}
    </div>
  );
}
