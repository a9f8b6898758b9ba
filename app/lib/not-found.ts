import { isServiceError } from "../../server/services/errors.ts";

/** Runs a service read; a 404 from it becomes `undefined` so the page can render its not-found state. */
export async function orNotFound<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (isServiceError(error) && error.status === 404) return undefined;
    throw error;
  }
}
