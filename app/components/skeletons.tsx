/** Shown while a poem page loads on a client navigation (docs/product/reading.md, Poem page). */
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

/** Shown while today's ember loads on a client navigation (docs/product/reading.md). */
export function EmberSkeleton() {
  return (
    <div
      role="status"
      aria-label="Loading ember"
      className="mx-auto flex max-w-2xl animate-pulse flex-col items-center gap-6 py-10"
    >
      <div className="h-10 w-48 rounded bg-stone-200" />
      <div className="h-4 w-40 rounded bg-stone-200" />
      <div className="h-24 w-full rounded bg-stone-200" />
    </div>
  );
}

/** Shown while a book's preview loads on a client navigation (docs/product/reading.md). */
export function BookSkeleton() {
  return (
    <div
      role="status"
      aria-label="Loading book"
      className="mx-auto flex max-w-2xl animate-pulse flex-col gap-6"
    >
      <div className="h-10 w-2/3 rounded bg-stone-200" />
      <div className="h-80 rounded-xl bg-stone-200" />
    </div>
  );
}

export type SkeletonKind = "poem" | "ember" | "book";

const SKELETONS = { poem: PoemSkeleton, ember: EmberSkeleton, book: BookSkeleton };

/** The skeleton of the page a client navigation is loading (app/root.tsx chooses which). */
export function NavigationSkeleton({ kind }: { kind: SkeletonKind }) {
  const Skeleton = SKELETONS[kind];
  return <Skeleton />;
}
