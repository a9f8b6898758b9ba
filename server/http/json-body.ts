import type { Context } from "hono";
import { z } from "zod/mini";
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from "../../common/text.ts";
import { invalid } from "../core/errors.ts";

/**
 * zod's own English messages, for an issue whose schema names none ("Too big: expected string to
 * have <=200 characters"). The schemas are built with zod/mini, which loads no messages, so that
 * the browser, which only decodes answers, does not download them.
 */
export const ZOD_MESSAGES_IN_ENGLISH = z.locales.en().localeError;

/**
 * Reads and validates a JSON body with the input's one schema. Wrong content type, malformed JSON
 * and schema failures are all 400 `{message, errors}` with the schema's (the spec's) messages.
 */
export async function readJsonBody<Schema extends z.ZodMiniType>(
  c: Context,
  schema: Schema,
): Promise<z.infer<Schema>> {
  const contentType = c.req.header("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
    throw invalid("Expected a JSON body (Content-Type: application/json)");
  }
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw invalid("Malformed JSON body");
  }
  return parseInput(schema, body);
}

/**
 * Reads a form body (urlencoded or multipart). A malformed one, such as multipart without its
 * boundary, is 400 `{message}` rather than the parser's exception as a 500.
 */
export async function readFormBody(c: Context): Promise<Record<string, string | File>> {
  try {
    return (await c.req.parseBody()) as Record<string, string | File>;
  } catch {
    throw invalid("Malformed form body");
  }
}

/**
 * Validates any input (query, params, body) with its schema; the first issue is the message.
 * Before any schema, one rule for every text of every input: text the database could not store
 * as sent is refused with 400, naming where it was, rather than failing as a 500 or being
 * changed on its way in.
 */
export function parseInput<Schema extends z.ZodMiniType>(
  schema: Schema,
  input: unknown,
): z.infer<Schema> {
  const unstorable = findUnstorableText(input);
  if (unstorable !== undefined) {
    throw invalid(UNSTORABLE_TEXT_MESSAGE, { [unstorable || "_"]: [UNSTORABLE_TEXT_MESSAGE] });
  }
  const result = schema.safeParse(input, { error: ZOD_MESSAGES_IN_ENGLISH });
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join(".") || "_";
    errors[key] = [...(errors[key] ?? []), issue.message];
  }
  throw invalid(result.error.issues[0]?.message ?? "Invalid input", errors);
}

/**
 * The path ('pages.0.title') of a string, or an object key, that is not storable text.
 * Walked with a stack of its own: a 100 KB body can nest deeper than the call stack goes.
 */
function findUnstorableText(input: unknown): string | undefined {
  const pending: { value: unknown; path: string }[] = [{ value: input, path: "" }];
  const at = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === "string") {
      if (!isStorableText(value)) return path;
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => {
        pending.push({ value: item, path: at(path, index) });
      });
    } else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        if (!isStorableText(key)) return at(path, key);
        pending.push({ value: item, path: at(path, key) });
      }
    }
  }
  return undefined;
}
