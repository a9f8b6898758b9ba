import { useState } from "react";
import { adminRequest } from "./admin-request.ts";
import type { Tag } from "./tag-choices.tsx";
import { Field, FormPanel, inputClass, primaryButton, secondaryButton } from "./ui.tsx";
import { useAdminList } from "./use-admin-list.ts";

/** Tags: names with Edit (no delete button, SPEC.md §2), and the tag form. */
export function TagsTab() {
  const { items: tags, isFailed, reload } = useAdminList<Tag>("/api/tags");
  const [editing, setEditing] = useState<Tag | "new">();
  return (
    <section aria-label="Tags">
      {editing ? (
        <TagForm
          tag={editing === "new" ? undefined : editing}
          onDone={async (isSaved) => {
            setEditing(undefined);
            if (isSaved) await reload();
          }}
        />
      ) : (
        <button type="button" className={`${primaryButton} mb-6`} onClick={() => setEditing("new")}>
          Add New Tag
        </button>
      )}
      {isFailed && <p role="alert">The tags could not be loaded.</p>}
      <ul className="divide-y divide-stone-200 rounded-lg border border-stone-300 bg-white">
        {tags?.map((tag) => (
          <li key={tag.id} className="flex items-center justify-between px-4 py-3">
            <span>{tag.name}</span>
            <button
              type="button"
              className={secondaryButton}
              onClick={() => setEditing(tag)}
              aria-label={`Edit ${tag.name}`}
            >
              Edit
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function TagForm({ tag, onDone }: { tag?: Tag; onDone: (isSaved: boolean) => void }) {
  const [name, setName] = useState(tag?.name ?? "");
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [formError, setFormError] = useState<string>();
  const [isSaving, setSaving] = useState(false);

  async function save() {
    setSaving(true);
    const result = await adminRequest(
      tag ? "PUT" : "POST",
      tag ? `/api/admin/tags/${tag.id}` : "/api/admin/tags",
      { name },
      tag
        ? { success: "Tag updated successfully", failure: "Failed to update tag" }
        : { success: "Tag created successfully", failure: "Failed to create tag" },
    );
    setSaving(false);
    if (result.ok) return onDone(true);
    setErrors(result.fieldErrors);
    setFormError(Object.keys(result.fieldErrors).length === 0 ? result.message : undefined);
  }

  return (
    <FormPanel
      title={tag ? "Edit Tag" : "New Tag"}
      onCancel={() => onDone(false)}
      onSubmit={save}
      isSaving={isSaving}
      formError={formError}
    >
      <Field label="Name" name="tag-name" errors={errors.name}>
        {(props) => (
          <input
            {...props}
            value={name}
            onChange={(event) => setName(event.target.value)}
            className={inputClass}
          />
        )}
      </Field>
    </FormPanel>
  );
}
