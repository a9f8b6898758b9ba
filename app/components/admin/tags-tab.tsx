import { useState } from "react";
import { endpoints } from "../../../common/endpoints.ts";
import type { TagRef } from "../../../common/schemas/poems.ts";
import { ContentTab } from "./content-tab.tsx";
import { Field, FormPanel, inputClass } from "./ui.tsx";
import { saveMessages, useAdminForm } from "./use-admin-form.ts";

/** Tags: names with Edit (no delete button, docs/product/admin.md), and the tag form. */
export function TagsTab() {
  return (
    <ContentTab
      entity="Tag"
      list={endpoints.listTags}
      describe={(tag) => ({ title: tag.name })}
      renderForm={(tag, onDone) => <TagForm tag={tag} onDone={onDone} />}
    />
  );
}

function TagForm({ tag, onDone }: { tag?: TagRef; onDone: (isSaved: boolean) => void }) {
  const [name, setName] = useState(tag?.name ?? "");
  const form = useAdminForm();

  async function save() {
    const messages = saveMessages("Tag", !tag);
    const isSaved = tag
      ? await form.submit(endpoints.updateTag, { params: { id: tag.id }, body: { name } }, messages)
      : await form.submit(endpoints.createTag, { body: { name } }, messages);
    if (isSaved) onDone(true);
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
