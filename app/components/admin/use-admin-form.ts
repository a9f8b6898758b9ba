import { useRef, useState } from "react";
import type { z } from "zod/mini";
import type { Endpoint } from "../../../common/endpoints.ts";
import { ApiError, type CallRequest } from "../../lib/api.ts";
import { isSessionEnded } from "../../lib/api-failure.ts";
import { adminCall } from "./admin-call.ts";

/** A form's saving state and the server's messages for it, for every admin form. */
export function useAdminForm() {
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [formError, setFormError] = useState<string>();
  const [isSaving, setSaving] = useState(false);
  // The latest refusal's field messages, readable at once after `submit` (state lags a render).
  const latestErrors = useRef<Record<string, string[]>>({});

  /**
   * Sends the form; the record saved, or undefined when it was not, its messages shown and the
   * form kept open.
   */
  async function submit<E extends Endpoint>(
    endpoint: E,
    request: CallRequest<E>,
    /** `success` left out: the caller says what happened itself. */
    messages: { success?: string; failure: string },
  ): Promise<z.output<E["answer"]> | undefined> {
    setSaving(true);
    const result = await adminCall(endpoint, request, messages);
    setSaving(false);
    // A saved form shows no message from an earlier try (a form that stays open, the schedule's).
    const refusal =
      !result.ok && result.error instanceof ApiError && !isSessionEnded(result.error)
        ? result.error
        : undefined;
    const fieldErrors = refusal?.fieldErrors ?? {};
    setErrors(fieldErrors);
    latestErrors.current = fieldErrors;
    // A message about no field in particular (a taken slug, say) is shown for the whole form.
    setFormError(Object.keys(fieldErrors).length === 0 ? refusal?.serverMessage : undefined);
    return result.ok ? result.data : undefined;
  }

  return { errors, formError, isSaving, submit, refusedFields: () => latestErrors.current };
}

/** The spec's toasts for saving `entity` ('Poem created successfully', 'Failed to update tag'). */
export function saveMessages(entity: string, isNew: boolean) {
  const verb = isNew ? "create" : "update";
  return {
    success: `${entity} ${verb}d successfully`,
    failure: `Failed to ${verb} ${entity.toLowerCase()}`,
  };
}
