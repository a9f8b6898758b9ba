import type { z } from "zod/mini";
import type { Endpoint } from "../../../common/endpoints.ts";
import { ApiError, type CallArgs, type CallRequest, callApi } from "../../lib/api.ts";
import { reportFailure } from "../../lib/api-failure.ts";
import { notify, type ToastAction } from "../../lib/toast.ts";

export type AdminCallResult<E extends Endpoint> =
  | { ok: true; data: z.output<E["answer"]> }
  | { ok: false; error: unknown };

/**
 * An admin change with its answers (docs/product/admin.md): 'Success' with `success`
 * when there is one, and a failure goes the one way failures go (app/lib/api-failure.ts):
 * a lost session to sign-in after 500 ms, anything else 'Error' with `failure`.
 */
export async function adminCall<E extends Endpoint>(
  endpoint: E,
  request: CallRequest<E>,
  messages: {
    success?: string;
    failure: string;
    /** Beside the success message: the delete's Undo. */
    successAction?: ToastAction;
    /**
     * Show the server's reason for a 404 or 409 instead of `failure`: a restore says that the
     * poem was already restored, or is past restoring.
     */
    isReasonShown?: boolean;
  },
): Promise<AdminCallResult<E>> {
  try {
    const data = await callApi(endpoint, ...([request] as CallArgs<E>));
    if (messages.success) notify("Success", messages.success, messages.successAction);
    return { ok: true, data };
  } catch (error) {
    const reason =
      messages.isReasonShown && error instanceof ApiError && [404, 409].includes(error.status)
        ? error.serverMessage
        : undefined;
    reportFailure(error, "admin", reason ?? messages.failure);
    return { ok: false, error };
  }
}
