import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { data } from "react-router";
import { ServiceError } from "../core/errors.ts";
import { RateLimitedError } from "../core/rate-limit.ts";
import type { Logger } from "../logger.ts";

/**
 * The API's one error handler: service errors become `{message, errors?}` with their status;
 * anything else is logged with the request id and answered 500 with no stack trace or SQL.
 */
export function createErrorHandler(logger: Logger) {
  return (error: Error, c: Context) => {
    if (error instanceof RateLimitedError) {
      c.header("Retry-After", String(error.retryAfterSeconds));
    }
    if (error instanceof ServiceError) {
      return c.json({ message: error.message, errors: error.errors }, error.status);
    }
    if (error instanceof HTTPException) {
      const status = error.status;
      const message = status === 413 ? "Request body too large" : error.message || "Bad request";
      return c.json({ message }, status);
    }
    if (hasErrorCode(error, TEXT_THE_DATABASE_REFUSES)) {
      return c.json({ message: "Invalid characters in input" }, 400);
    }
    const requestId = c.get("requestId");
    if (isConnectionError(error)) {
      logger.error({ requestId, err: error }, "database unavailable");
      return c.json({ message: "Service temporarily unavailable" }, 503);
    }
    logger.error({ requestId, err: error }, "unhandled error");
    return c.json({ message: "Internal Server Error", requestId }, 500);
  };
}

/**
 * PostgreSQL refuses text holding a NUL character (in any input: a slug, a query, a JSON field):
 * 22021 for text columns and parameters, 22P05 for \u0000 inside jsonb. The input is at fault.
 */
const TEXT_THE_DATABASE_REFUSES = ["22021", "22P05"];

function hasErrorCode(error: unknown, codes: string[]): boolean {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code && codes.includes(code)) return true;
  }
  return false;
}

/** Errors that mean the database cannot be reached right now (a restart, a network cut). */
export function isConnectionError(error: unknown): boolean {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (
      code &&
      ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "57P01", "57P03", "08006", "08001"].includes(code)
    ) {
      return true;
    }
    if (/Connection terminated|timeout exceeded when trying to connect/i.test(cause.message))
      return true;
  }
  return false;
}

/**
 * What a page loader throws when the database cannot be reached: the root ErrorBoundary then
 * shows its "We'll be right back" page with status 503, as the API answers 503.
 */
export function databaseUnavailablePage() {
  return data("Service temporarily unavailable", { status: 503 });
}

/**
 * The services as page loaders call them: a database that cannot be reached becomes
 * `databaseUnavailablePage()` instead of an error React Router would show as a 500.
 */
export function withPageOutageErrors<T extends object>(services: T): T {
  const translate = (error: unknown) =>
    isConnectionError(error) ? databaseUnavailablePage() : error;
  const guard = (service: object) =>
    new Proxy(service, {
      get(target, name, receiver) {
        const member: unknown = Reflect.get(target, name, receiver);
        if (typeof member !== "function") return member;
        return (...args: unknown[]) => {
          try {
            const result: unknown = member.apply(target, args);
            return result instanceof Promise
              ? result.catch((error: unknown) => {
                  throw translate(error);
                })
              : result;
          } catch (error) {
            throw translate(error);
          }
        };
      },
    });
  return Object.fromEntries(
    Object.entries(services).map(([name, service]) => [
      name,
      typeof service === "object" && service !== null ? guard(service) : service,
    ]),
  ) as T;
}
