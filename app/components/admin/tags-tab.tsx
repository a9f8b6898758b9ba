import { useState } from "react";
import { endpoints } from "../../../common/endpoints.ts";
import type { TagRef } from "../../../common/schemas/poems.ts";
import type { TagUsage } from "../../../common/schemas/sample-content.ts";
import { ContentTab } from "./content-tab.tsx";
import { Field, FormPanel, inputClass } from "./ui.tsx";
import { saveMessages, useAdminForm } from "./use-admin-form.ts";

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What carries a tag, said before it is deleted: 'Used by 2 poems and 1 ember.' */
function usageOf(tag: TagUsage): string {
  if (tag.poems + tag.embers === 0) return "Nothing uses this tag.";
  return `Used by ${count(tag.poems, "poem", "poems")} and ${count(tag.embers, "ember", "embers")}.`;
}

/**
 * Tags: names with what uses each, Edit, and Delete after saying what the tag is on (it comes off
 * those poems and embers; they stay), and the tag form.
 */
export function TagsTab() {
  return (
    <ContentTab
      entity="Tag"
      list={endpoints.listTagUsage}
      remove={endpoints.deleteTag}
      confirmDelete={(tag) =>
        `${usageOf(tag)} Deleting “${tag.name}” takes it off ${tag.poems + tag.embers === 0 ? "nothing" : "them"}; the poems and embers stay.`
      }
      describe={(tag) => ({ title: tag.name, detail: usageOf(tag) })}
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
