import { z } from "zod/mini";

export { endpoints } from "../../common/endpoints.ts";
export { errorAnswer } from "../../common/schemas/answer.ts";

/** An answer decoded with the schema the server encoded it with (Dates come back as Dates). */
export function decodeAnswer(schema: z.ZodMiniType, json: unknown) {
  return z.safeDecode(schema, json);
}
