import { ADMIN_LOGGED_OUT_REDIRECT_MS } from "../../../common/constants.ts";
import { ApiError, apiRequest } from "../../lib/api.ts";
import { notify, notifyError } from "../../lib/toast.ts";

export type AdminResult<T> =
  | { ok: true; data: T }
  | { ok: false; fieldErrors: Record<string, string[]>; message?: string };

/**
 * An admin mutation with the spec's answers (SPEC.md §8, Admin side): a lost session says so and
 * goes to sign-in after 500 ms; any other failure toasts 'Error' with `failure` ('Failed to
 * create poem'), and hands the server's field messages back to the form.
 */
export async function adminRequest<T>(
  method: "POST" | "PUT" | "DELETE",
  url: string,
  body: unknown,
  messages: { success?: string; failure: string },
): Promise<AdminResult<T>> {
  try {
    const data = await apiRequest<T>(method, url, body);
    if (messages.success) notify("Success", messages.success);
    return { ok: true, data };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      notifyError("Unauthorized", "You are logged out. Logging in again...");
      setTimeout(() => window.location.assign("/api/login"), ADMIN_LOGGED_OUT_REDIRECT_MS);
      return { ok: false, fieldErrors: {} };
    }
    notifyError("Error", messages.failure);
    const parsed = error instanceof ApiError ? parseErrorBody(error.body) : {};
    return { ok: false, fieldErrors: parsed.errors ?? {}, message: parsed.message };
  }
}

function parseErrorBody(body: string): { message?: string; errors?: Record<string, string[]> } {
  try {
    return JSON.parse(body) as { message?: string; errors?: Record<string, string[]> };
  } catch {
    return {};
  }
}
