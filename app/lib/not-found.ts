/**
 * A service's "not found", as a page sees it: services throw errors that carry the status the API
 * would answer (server/core/errors.ts). The page reads that status, not the error's class,
 * which stays on the server: app/ imports no server code (decision 037).
 */
const isNotFound = (error: unknown) =>
  error instanceof Error && (error as { status?: unknown }).status === 404;

/** Runs a service read; a 404 from it becomes `undefined` so the page can render its not-found state. */
export async function orNotFound<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}
