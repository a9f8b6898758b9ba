/**
 * The small set of errors services throw. The API maps each to its status (server/http/errors.ts);
 * the message is written for the reader and is safe to show.
 */
export class ServiceError extends Error {
  override name = "ServiceError";
  readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503;
  readonly errors?: Record<string, string[]>;
  constructor(status: ServiceError["status"], message: string, errors?: Record<string, string[]>) {
    super(message);
    this.status = status;
    this.errors = errors;
  }
}

export const invalid = (message: string, errors?: Record<string, string[]>) =>
  new ServiceError(400, message, errors);
export const unauthorized = () => new ServiceError(401, "Unauthorized");
export const forbidden = (message = "Forbidden") => new ServiceError(403, message);
export const notFound = (message = "Not found") => new ServiceError(404, message);
export const conflict = (message: string) => new ServiceError(409, message);
export const tooLarge = (message: string) => new ServiceError(413, message);
export const unsupportedMediaType = (message: string) => new ServiceError(415, message);
export const unavailable = (message = "Service temporarily unavailable") =>
  new ServiceError(503, message);

export const isServiceError = (error: unknown): error is ServiceError =>
  error instanceof ServiceError;

/** A PostgreSQL error of this SQLSTATE, as either driver reports it (directly or as the cause). */
function isPostgresError(error: unknown, code: string): boolean {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if ((cause as { code?: unknown }).code === code) return true;
  }
  return false;
}

/** PostgreSQL's unique_violation. */
export const isUniqueViolation = (error: unknown) => isPostgresError(error, "23505");

/** PostgreSQL's foreign_key_violation: the row a write refers to is gone. */
export const isForeignKeyViolation = (error: unknown) => isPostgresError(error, "23503");
