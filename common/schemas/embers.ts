import { z } from "zod";
import { EMBERS_MAX_LIMIT, EMBERS_PAGE_SIZE } from "../constants.ts";
import { dateTime } from "./answer.ts";

/** An ember's fields; each read answers the few the spec names (SPEC.md §7). */
export const emberFields = z.object({
  id: z.number().int(),
  text: z.string(),
  date: dateTime,
  isFeatured: z.boolean(),
  featuredAt: dateTime.nullable(),
});
export type Ember = z.output<typeof emberFields>;

/** GET /api/embers/featured. */
export const featuredEmber = emberFields.pick({ text: true, date: true, featuredAt: true });
/** GET /api/ember/today. */
export const todaysEmber = emberFields.pick({ text: true, date: true });
/** GET /api/embers: one page of the archive. */
export const archivedEmbers = z.array(emberFields.pick({ id: true, text: true, date: true }));
export type ArchivedEmber = z.output<typeof archivedEmbers>[number];

/** Nine digits at most: a larger page would overflow the database's row offset. */
const positiveInteger = (name: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${name} must be a positive integer`)
    .transform(Number)
    .refine((value) => value >= 1, `${name} must be a positive integer`);

/** GET /api/embers?page&limit (SPEC.md §7: defaults 1 and 10). */
export const emberPageQuery = z.object({
  page: positiveInteger("page").default(1),
  limit: positiveInteger("limit")
    .default(EMBERS_PAGE_SIZE)
    .transform((limit) => Math.min(limit, EMBERS_MAX_LIMIT)),
});
