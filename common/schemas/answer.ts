import { z } from "zod/mini";

/**
 * What every answer schema is built from (docs/decisions/019-one-contract.md). A moment in time
 * is a Date in code on both sides and an ISO 8601 string on the wire: the server encodes with
 * the schema, the client decodes with the same one.
 */
export const dateTime = z.codec(z.iso.datetime({ offset: true }), z.date(), {
  decode: (text) => new Date(text),
  encode: (date) => date.toISOString(),
});

/** `{message}`: what confirmations (and every error, below) carry. */
export const messageAnswer = z.object({ message: z.string() });

/**
 * Every failed /api call answers this (server/http/errors.ts): the message a toast may show, the
 * schema's messages per field on 400, and on 500 only the request id to look up in the log.
 */
export const errorAnswer = z.object({
  message: z.string(),
  errors: z.optional(z.record(z.string(), z.array(z.string()))),
  requestId: z.optional(z.string()),
});
export type ErrorAnswer = z.output<typeof errorAnswer>;

/** A 204: nothing on the wire, `undefined` in code. */
export const noContent = z.undefined();
