import { type ReactNode, useState } from "react";
import { adminRequest } from "./admin-request.ts";
import { primaryButton, secondaryButton } from "./ui.tsx";
import { useAdminList } from "./use-admin-list.ts";

/**
 * A tab of one kind of content (poems, books, tags): 'Add New …', its form for create or edit
 * (closed on cancel or success), and the list with Edit and, where the spec has one, Delete
 * without confirmation (SPEC.md §2).
 */
export function ContentTab<Item extends { id: number }>({
  entity,
  listUrl,
  canDelete,
  describe,
  renderForm,
}: {
  /** As the spec's messages name it: 'Poem', 'Book', 'Tag'. */
  entity: string;
  listUrl: string;
  canDelete: boolean;
  /** `badge` follows the title (a poem's publication state). */
  describe: (item: Item) => { title: string; badge?: ReactNode; detail?: ReactNode };
  renderForm: (item: Item | undefined, onDone: (isSaved: boolean) => void) => ReactNode;
}) {
  const { items, isFailed, reload } = useAdminList<Item>(listUrl);
  const [editing, setEditing] = useState<Item | "new">();
  const path = `/api/admin/${entity.toLowerCase()}s`;

  async function remove(item: Item) {
    const result = await adminRequest("DELETE", `${path}/${item.id}`, undefined, {
      success: `${entity} deleted successfully`,
      failure: `Failed to delete ${entity.toLowerCase()}`,
    });
    if (result.ok) await reload();
  }

  return (
    <section aria-label={`${entity}s`}>
      {editing ? (
        renderForm(editing === "new" ? undefined : editing, async (isSaved) => {
          setEditing(undefined);
          if (isSaved) await reload();
        })
      ) : (
        <button type="button" className={`${primaryButton} mb-6`} onClick={() => setEditing("new")}>
          Add New {entity}
        </button>
      )}
      {isFailed && <p role="alert">The {entity.toLowerCase()}s could not be loaded.</p>}
      <ul className="divide-y divide-stone-200 rounded-lg border border-stone-300 bg-white">
        {items?.map((item) => {
          const { title, badge, detail } = describe(item);
          return (
            <li key={item.id} className="flex flex-wrap items-start gap-3 px-4 py-3">
              <div className="min-w-0 flex-1">
                <p className="font-medium">
                  {title}
                  {badge}
                </p>
                {detail && <p className="text-sm text-stone-700">{detail}</p>}
              </div>
              <div className="flex gap-2">
                <button
                  type="button"
                  className={secondaryButton}
                  onClick={() => setEditing(item)}
                  aria-label={`Edit ${title}`}
                >
                  Edit
                </button>
                {canDelete && (
                  <button
                    type="button"
                    className={secondaryButton}
                    onClick={() => remove(item)}
                    aria-label={`Delete ${title}`}
                  >
                    Delete
                  </button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
