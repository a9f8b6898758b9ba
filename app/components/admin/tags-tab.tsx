import { useState } from "react";
import { ContentTab } from "./content-tab.tsx";
import type { Tag } from "./tag-choices.tsx";
import { Field, FormPanel, inputClass } from "./ui.tsx";
import { saveMessages, useAdminForm } from "./use-admin-form.ts";

/** Tags: names with Edit (no delete button, SPEC.md §2), and the tag form. */
export function TagsTab() {
  return (
    <ContentTab<Tag>
      entity="Tag"
      listUrl="/api/tags"
      canDelete={false}
      describe={(tag) => ({ title: tag.name })}
      renderForm={(tag, onDone) => <TagForm tag={tag} onDone={onDone} />}
    />
  );
}

function TagForm({ tag, onDone }: { tag?: Tag; onDone: (isSaved: boolean) => void }) {
  const [name, setName] = useState(tag?.name ?? "");
  const form = useAdminForm();

  async function save() {
    const url = tag ? `/api/admin/tags/${tag.id}` : "/api/admin/tags";
    if (await form.submit(tag ? "PUT" : "POST", url, { name }, saveMessages("Tag", !tag))) {
      onDone(true);
    }
  }

  return (
    <FormPanel
      title={tag ? "Edit Tag" : "New Tag"}
      onCancel={() => onDone(false)}
      onSubmit={save}
      isSaving={form.isSaving}
      formError={form.formError}
    >
      <Field label="Name" name="tag-name" errors={form.errors.name}>
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
