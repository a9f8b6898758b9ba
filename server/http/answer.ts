import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { z } from "zod/mini";
import type { Endpoint } from "../../common/endpoints.ts";
import { ZOD_MESSAGES_IN_ENGLISH } from "./json-body.ts";

/**
 * Sends an /api call's answer through its schema (common/endpoints.ts), for a handler that makes
 * its Response itself (`routesAt(…).route(endpoint, …)`: a call that chooses its own status or
 * also takes a form). The handler must be the one the description names, so it cannot answer
 * with another call's schema. Handlers registered with `.call` are sent by the router.
 */
export function answer<E extends Endpoint>(
  c: Context,
  endpoint: E,
  value: z.output<E["answer"]>,
  status: ContentfulStatusCode | 204 = endpoint.status ?? 200,
): Response {
  const method = c.req.method === "HEAD" ? "GET" : c.req.method;
  if (method !== endpoint.method || c.req.routePath !== endpoint.path) {
    throw new Error(
      `${c.req.method} ${c.req.routePath} answered as ${endpoint.method} ${endpoint.path}`,
    );
  }
  return sendAnswer(c, endpoint, value, status);
}

/**
 * Encodes the answer with the call's schema: Dates become ISO strings, fields the schema does not
 * name stay on the server, and a value that does not match (a missing field, a wrong type) is an
 * error, answered 500 and logged with the request id, in every environment: the client decodes
 * with the same schema, so such an answer could only fail there, where nobody reads the log
 * (docs/decisions/019-one-contract.md).
 */
export function sendAnswer<E extends Endpoint>(
  c: Context,
  endpoint: E,
  value: z.output<E["answer"]>,
  status: ContentfulStatusCode | 204 = endpoint.status ?? 200,
): Response {
  const encoded = z.safeEncode(endpoint.answer, value, { error: ZOD_MESSAGES_IN_ENGLISH });
  if (!encoded.success) {
    throw new Error(
      `The answer to ${endpoint.method} ${endpoint.path} does not match its schema:\n${z.prettifyError(encoded.error)}`,
    );
  }
  if (status === 204) return c.body(null, 204);
  return c.json(encoded.data, status);
}
