/** One dot button per position ('Go to stanza 3', 'Go to page 2'), the current one marked. */
export function PositionDots({
  count,
  current,
  noun,
  onSelect,
}: {
  count: number;
  current: number;
  noun: "stanza" | "page";
  onSelect: (position: number) => void;
}) {
  return (
    <div className="flex flex-wrap justify-center gap-1">
      {Array.from({ length: count }, (_, position) => (
        <button
          // biome-ignore lint/suspicious/noArrayIndexKey: one dot per position.
          key={position}
          type="button"
          onClick={() => onSelect(position)}
          aria-label={`Go to ${noun} ${position + 1}`}
          aria-current={position === current ? "step" : undefined}
          className="flex h-6 w-6 items-center justify-center rounded-full"
        >
          <span
            aria-hidden="true"
            className={`h-2.5 w-2.5 rounded-full ${position === current ? "bg-ember-700" : "bg-stone-300"}`}
          />
        </button>
      ))}
    </div>
  );
}
