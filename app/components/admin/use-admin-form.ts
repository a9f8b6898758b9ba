import { useState } from "react";
import { adminRequest } from "./admin-request.ts";

/** A form's saving state and the server's messages for it, for every admin form. */
export function useAdminForm() {
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [formError, setFormError] = useState<string>();
  const [isSaving, setSaving] = useState(false);

  /**
   * Sends the form; the record saved, or undefined when it was not, its messages shown and the
   * form kept open.
   */
  async function submit<Saved = unknown>(
    method: "POST" | "PUT",
    url: string,
    body: unknown,
    messages: { success: string; failure: string },
  ): Promise<Saved | undefined> {
    setSaving(true);
    const result = await adminRequest<Saved>(method, url, body, messages);
    setSaving(false);
    if (result.ok) return result.data;
    setErrors(result.fieldErrors);
    // A message about no field in particular (a taken slug, say) is shown for the whole form.
    setFormError(Object.keys(result.fieldErrors).length === 0 ? result.message : undefined);
    return undefined;
  }

  return { errors, formError, isSaving, submit };
}

/** The spec's toasts for saving `entity` ('Poem created successfully', 'Failed to update tag'). */
export function saveMessages(entity: string, isNew: boolean) {
  const verb = isNew ? "create" : "update";
  return {
    success: `${entity} ${verb}d successfully`,
    failure: `Failed to ${verb} ${entity.toLowerCase()}`,
  };
}
