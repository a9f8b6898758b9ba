import { useState } from "react";
import { endpoints } from "../../../common/endpoints.ts";
import type { SampleContent } from "../../../common/schemas/sample-content.ts";
import { adminCall } from "./admin-call.ts";
import { primaryButton, secondaryButton } from "./ui.tsx";
import { useAdminList } from "./use-admin-list.ts";

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The sample, each kind with what it holds, as the poet will recognise it. */
function listed(sample: SampleContent) {
  return [
    { label: count(sample.poems.length, "poem", "poems"), items: sample.poems },
    { label: count(sample.embers.length, "ember", "embers"), items: sample.embers },
    { label: count(sample.books.length, "book", "books"), items: sample.books },
    { label: count(sample.tags.length, "tag", "tags"), items: sample.tags },
    {
      label: count(sample.guestVoices.length, "guest voice", "guest voices"),
      items: sample.guestVoices,
    },
  ].filter((kind) => kind.items.length > 0);
}

/**
 * Start fresh (docs/decisions/058-sample-content.md): while the site still holds the sample it
 * started with, 'Remove the sample content' lists every piece of it and removes it in one step
 * once confirmed. What the poet wrote or edited is not in the list and is not touched.
 */
export function SampleContentPanel({ onRemoved }: { onRemoved: () => void }) {
  const { items: sample, reload } = useAdminList(endpoints.listSampleContent);
  const [isConfirming, setConfirming] = useState(false);
  const [isRemoving, setRemoving] = useState(false);
  const kinds = sample ? listed(sample) : [];
  if (kinds.length === 0) return null;

  async function removeAll() {
    setRemoving(true);
    const result = await adminCall(
      endpoints.removeSampleContent,
      {},
      { success: "Sample content removed", failure: "Failed to remove the sample content" },
    );
    setRemoving(false);
    setConfirming(false);
    if (!result.ok) return;
    onRemoved();
    await reload();
  }

  return (
    <section
      aria-labelledby="sample-content"
      className="mt-6 rounded-lg border border-amber-300 bg-amber-50 p-4"
    >
      <h2 id="sample-content" className="font-serif text-xl">
        Start fresh
      </h2>
      <p className="mt-1 text-sm text-stone-800">
        This site still has the sample content it came with:{" "}
        {kinds.map((kind) => kind.label).join(", ")}.
      </p>
      {!isConfirming ? (
        <button
          type="button"
          className={`${secondaryButton} mt-3`}
          onClick={() => setConfirming(true)}
        >
          Remove the sample content
        </button>
      ) : (
        <div className="mt-3">
          <p className="text-sm font-medium">
            These will be removed for good. Nothing you wrote or edited is in this list.
          </p>
          <div className="mt-2 max-h-72 space-y-3 overflow-y-auto rounded border border-amber-200 bg-white p-3 text-sm">
            {kinds.map((kind) => (
              <div key={kind.label}>
                <h3 className="font-medium">{kind.label}</h3>
                <ul className="list-disc pl-5 text-stone-800">
                  {kind.items.map((item, index) => (
                    // Two sample embers may say the same words on different days.
                    // biome-ignore lint/suspicious/noArrayIndexKey: the list never reorders.
                    <li key={index}>{item}</li>
                  ))}
                </ul>
              </div>
            ))}
            {sample && sample.keptTags.length > 0 && (
              <p className="text-stone-700">
                Kept, because your own poems or embers use them: {sample.keptTags.join(", ")}.
              </p>
            )}
          </div>
          <div className="mt-3 flex flex-wrap gap-2">
            <button
              type="button"
              className={primaryButton}
              disabled={isRemoving}
              onClick={() => void removeAll()}
            >
              {isRemoving ? "Removing..." : "Remove all of it"}
            </button>
            <button type="button" className={secondaryButton} onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
