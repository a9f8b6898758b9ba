/** Shown while a poem page loads on a client navigation (SPEC.md §2, Poem page). */
export function PoemSkeleton() {
  return (
    <div
      role="status"
      aria-label="Loading poem"
      className="mx-auto flex max-w-3xl animate-pulse flex-col gap-6"
    >
      <div className="h-4 w-24 rounded bg-stone-200" />
      <div className="h-10 w-2/3 rounded bg-stone-200" />
      <div className="flex gap-2">
        <div className="h-6 w-20 rounded-full bg-stone-200" />
        <div className="h-6 w-20 rounded-full bg-stone-200" />
      </div>
      <div className="h-72 rounded-xl bg-stone-200" />
    </div>
  );
}
