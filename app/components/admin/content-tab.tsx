import { type ReactNode, useState } from "react";
import type { z } from "zod/mini";
import type { Endpoint } from "../../../common/endpoints.ts";
import type { CallRequest } from "../../lib/api.ts";
import { adminCall } from "./admin-call.ts";
import { primaryButton, secondaryButton } from "./ui.tsx";
import { useAdminList } from "./use-admin-list.ts";

/**
 * A tab of one kind of content (poems, books, tags): 'Add New …', its form for create or edit
 * (closed on cancel or success), and the list with Edit and, where the spec has one, Delete
 * without confirmation (docs/product/admin.md).
 */
export function ContentTab<Item extends { id: number }>({
  entity,
  list,
  remove,
  describe,
  renderForm,
}: {
  /** As the spec's messages name it: 'Poem', 'Book', 'Tag'. */
  entity: string;
  list: Endpoint & { method: "GET"; answer: z.ZodMiniType<Item[]> };
  /** The delete call, where the spec has a Delete button. */
  remove?: Endpoint & { method: "DELETE"; path: `${string}/:id` };
  /** `badge` follows the title (a poem's publication state). */
  describe: (item: Item) => { title: string; badge?: ReactNode; detail?: ReactNode };
  renderForm: (item: Item | undefined, onDone: (isSaved: boolean) => void) => ReactNode;
}) {
  const { items, isFailed, reload } = useAdminList(list);
  const [editing, setEditing] = useState<Item | "new">();

  async function removeItem(item: Item) {
    if (!remove) return;
    const request = { params: { id: item.id } } as CallRequest<typeof remove>;
    const result = await adminCall(remove, request, {
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
                {remove && (
                  <button
                    type="button"
                    className={secondaryButton}
                    onClick={() => removeItem(item)}
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
