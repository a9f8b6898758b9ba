import { useState } from "react";
import { adminRequest } from "./admin-request.ts";

/** A form's saving state and the server's messages for it, for every admin form. */
export function useAdminForm() {
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [formError, setFormError] = useState<string>();
  const [isSaving, setSaving] = useState(false);

  /** Sends the form; true when saved, otherwise the messages are shown and the form stays. */
  async function submit(
    method: "POST" | "PUT",
    url: string,
    body: unknown,
    messages: { success: string; failure: string },
  ): Promise<boolean> {
    setSaving(true);
    const result = await adminRequest(method, url, body, messages);
    setSaving(false);
    if (result.ok) return true;
    setErrors(result.fieldErrors);
    // A message about no field in particular (a taken slug, say) is shown for the whole form.
    setFormError(Object.keys(result.fieldErrors).length === 0 ? result.message : undefined);
    return false;
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
