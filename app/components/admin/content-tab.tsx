import { type ReactNode, useEffect, useState } from "react";
import type { z } from "zod/mini";
import type { Endpoint } from "../../../common/endpoints.ts";
import type { DeletedItem } from "../../../common/schemas/recently-deleted.ts";
import type { CallRequest } from "../../lib/api.ts";
import { notify } from "../../lib/toast.ts";
import { adminCall } from "./admin-call.ts";
import { primaryButton, secondaryButton } from "./ui.tsx";
import { useAdminList } from "./use-admin-list.ts";

/** The calls behind a tab's Recently deleted list (docs/decisions/033). */
export interface RecentlyDeletedCalls {
  list: Endpoint & { method: "GET"; answer: z.ZodMiniType<DeletedItem[]> };
  restore: Endpoint & { method: "POST"; path: `${string}/:id/restore` };
}

/**
 * A tab of one kind of content (poems, books, tags): 'Add New …', its form for create or edit
 * (closed on cancel or success), and the list with Edit and, where the spec has one, Delete
 * without confirmation (docs/product/admin.md). A delete is undone from its toast's Undo, or later
 * from the tab's Recently deleted list.
 */
export function ContentTab<Item extends { id: number }>({
  entity,
  list,
  remove,
  recentlyDeleted,
  timeZone,
  describe,
  renderForm,
  isBulk = false,
  confirmDelete,
  openItemId,
}: {
  /** As the spec's messages name it: 'Poem', 'Book', 'Tag'. */
  entity: string;
  list: Endpoint & { method: "GET"; answer: z.ZodMiniType<Item[]> };
  /** The delete call, where the spec has a Delete button. */
  remove?: Endpoint & { method: "DELETE"; path: `${string}/:id` };
  recentlyDeleted?: RecentlyDeletedCalls;
  /** The site's clock, for dates shown (the browser's when absent). */
  timeZone?: string;
  /**
   * `badge` follows the title (a poem's publication state); `link` goes to the item's page
   * (or its preview, for a poem not yet out).
   */
  describe: (item: Item) => {
    title: string;
    badge?: ReactNode;
    detail?: ReactNode;
    link?: { href: string; label: string };
  };
  renderForm: (item: Item | undefined, onDone: (isSaved: boolean) => void) => ReactNode;
  /** Each item gets a checkbox, and the chosen ones are deleted together (one Undo for all). */
  isBulk?: boolean;
  /** What a delete would take with it, asked before a delete that cannot be undone. */
  confirmDelete?: (item: Item) => string;
  /** An item whose form opens as the list arrives (a draft's 'Edit' on its page). */
  openItemId?: number;
}) {
  const { items, isFailed, reload } = useAdminList(list);
  const [editing, setEditing] = useState<Item | "new">();
  const [deletedVersion, setDeletedVersion] = useState(0);
  const [chosen, setChosen] = useState<number[]>([]);
  const [confirming, setConfirming] = useState<number>();
  const [isOpenedItemShown, setOpenedItemShown] = useState(false);
  useEffect(() => {
    if (isOpenedItemShown || openItemId === undefined || !items) return;
    setOpenedItemShown(true);
    const item = items.find((candidate) => candidate.id === openItemId);
    if (item) setEditing(item);
  }, [items, openItemId, isOpenedItemShown]);
  const reloadAll = async () => {
    setDeletedVersion((version) => version + 1);
    await reload();
  };

  async function restore(id: number) {
    if (!recentlyDeleted) return;
    const request = { params: { id }, body: {} } as CallRequest<typeof recentlyDeleted.restore>;
    await adminCall(recentlyDeleted.restore, request, {
      success: `${entity} restored successfully`,
      failure: `Failed to restore ${entity.toLowerCase()}`,
      isReasonShown: true,
    });
    // Whether it worked or was refused (restored or purged meanwhile), the lists catch up.
    await reloadAll();
  }

  async function removeItem(item: Item) {
    if (!remove) return;
    const request = { params: { id: item.id } } as CallRequest<typeof remove>;
    const result = await adminCall(remove, request, {
      success: `${entity} deleted successfully`,
      failure: `Failed to delete ${entity.toLowerCase()}`,
      successAction: recentlyDeleted && { label: "Undo", run: () => void restore(item.id) },
    });
    setConfirming(undefined);
    if (result.ok) await reloadAll();
  }

  /** Deletes the chosen items one by one, as single deletes are; one Undo restores them all. */
  async function removeChosen() {
    if (!remove) return;
    const plural = `${entity.toLowerCase()}s`;
    const deleted: number[] = [];
    for (const id of chosen) {
      const request = { params: { id } } as CallRequest<typeof remove>;
      const result = await adminCall(remove, request, {
        failure: `Failed to delete ${entity.toLowerCase()}`,
      });
      if (result.ok) deleted.push(id);
    }
    setChosen([]);
    if (deleted.length > 0) {
      notify(
        "Success",
        `${deleted.length} ${deleted.length === 1 ? entity.toLowerCase() : plural} deleted`,
        recentlyDeleted && {
          label: "Undo",
          run: () => void Promise.all(deleted.map((id) => restore(id))),
        },
      );
    }
    await reloadAll();
  }

  const isChosen = (id: number) => chosen.includes(id);
  const toggle = (id: number) =>
    setChosen((current) =>
      current.includes(id) ? current.filter((other) => other !== id) : [...current, id],
    );

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
      {isBulk && remove && items && items.length > 0 && (
        <div className="mb-3 flex flex-wrap items-center gap-3">
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={chosen.length === items.length}
              onChange={(event) =>
                setChosen(event.target.checked ? items.map((item) => item.id) : [])
              }
            />
            Select all
          </label>
          <button
            type="button"
            className={secondaryButton}
            disabled={chosen.length === 0}
            onClick={() => void removeChosen()}
          >
            Delete selected ({chosen.length})
          </button>
        </div>
      )}
      <ul className="divide-y divide-stone-200 rounded-lg border border-stone-300 bg-white">
        {items?.map((item) => {
          const { title, badge, detail, link } = describe(item);
          return (
            <li key={item.id} className="flex flex-wrap items-start gap-3 px-4 py-3">
              {isBulk && remove && (
                <input
                  type="checkbox"
                  className="mt-1.5"
                  checked={isChosen(item.id)}
                  onChange={() => toggle(item.id)}
                  aria-label={`Select ${title}`}
                />
              )}
              <div className="min-w-48 flex-1">
                <p className="font-medium">
                  {title}
                  {badge}
                </p>
                {detail && <p className="text-sm text-stone-700">{detail}</p>}
              </div>
              <div className="flex flex-wrap gap-2">
                {link && (
                  <a
                    href={link.href}
                    className={secondaryButton}
                    aria-label={`${link.label} ${title}`}
                  >
                    {link.label}
                  </a>
                )}
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
                    onClick={() => (confirmDelete ? setConfirming(item.id) : removeItem(item))}
                    aria-label={`Delete ${title}`}
                  >
                    Delete
                  </button>
                )}
              </div>
              {confirmDelete && confirming === item.id && (
                <div role="alert" className="w-full rounded bg-amber-50 p-3 text-sm">
                  <p>{confirmDelete(item)}</p>
                  <div className="mt-2 flex flex-wrap gap-2">
                    <button
                      type="button"
                      className={primaryButton}
                      onClick={() => void removeItem(item)}
                    >
                      Delete {entity.toLowerCase()}
                    </button>
                    <button
                      type="button"
                      className={secondaryButton}
                      onClick={() => setConfirming(undefined)}
                    >
                      Keep it
                    </button>
                  </div>
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {recentlyDeleted && (
        <RecentlyDeleted
          key={deletedVersion}
          entity={entity}
          calls={recentlyDeleted}
          timeZone={timeZone}
          onRestore={restore}
        />
      )}
    </section>
  );
}

/**
 * What was deleted in the last 30 days: hidden from everyone, each restorable whole until the
 * date it is removed for good.
 */
function RecentlyDeleted({
  entity,
  calls,
  timeZone,
  onRestore,
}: {
  entity: string;
  calls: RecentlyDeletedCalls;
  timeZone?: string;
  onRestore: (id: number) => Promise<void>;
}) {
  const { items, isFailed } = useAdminList(calls.list);
  const day = new Intl.DateTimeFormat("en-US", { timeZone, month: "short", day: "numeric" });
  const headingId = `recently-deleted-${entity.toLowerCase()}s`;
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <h3 id={headingId} className="font-serif text-lg">
        Recently deleted
      </h3>
      <p className="mt-1 text-sm text-stone-700">
        Hidden from everyone and kept for 30 days with all it holds; restore brings it back as it
        was.
      </p>
      {isFailed && <p role="alert">Recently deleted could not be loaded.</p>}
      {items?.length === 0 && (
        <p className="mt-3 text-sm text-stone-700">
          No {entity.toLowerCase()}s deleted in the last 30 days.
        </p>
      )}
      {items && items.length > 0 && (
        <ul className="mt-3 divide-y divide-stone-200 rounded-lg border border-dashed border-stone-400 bg-stone-50">
          {items.map((item) => (
            <li key={item.id} className="flex flex-wrap items-center gap-3 px-4 py-3">
              <div className="min-w-48 flex-1">
                <p className="font-medium">{item.title}</p>
                <p className="text-sm text-stone-700">
                  Deleted {day.format(item.deletedAt)} · removed for good {day.format(item.purgeAt)}
                </p>
              </div>
              <button
                type="button"
                className={secondaryButton}
                onClick={() => onRestore(item.id)}
                aria-label={`Restore ${item.title}`}
              >
                Restore
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
