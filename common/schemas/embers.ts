import { z } from "zod/mini";
import { EMBERS_MAX_LIMIT, EMBERS_PAGE_SIZE } from "../constants.ts";
import { dateTime } from "./answer.ts";
import { digitsInText } from "./input.ts";

/** An ember's fields; each read answers the few the API names (docs/product/api.md). */
export const emberFields = z.object({
  id: z.int(),
  text: z.string(),
  date: dateTime,
  isFeatured: z.boolean(),
  featuredAt: z.nullable(dateTime),
});
export type Ember = z.output<typeof emberFields>;

/** GET /api/embers/featured. */
export const featuredEmber = z.pick(emberFields, { text: true, date: true, featuredAt: true });
/** GET /api/ember/today. */
export const todaysEmber = z.pick(emberFields, { text: true, date: true });
/** GET /api/embers: one page of the archive. */
export const archivedEmbers = z.array(z.pick(emberFields, { id: true, text: true, date: true }));
export type ArchivedEmber = z.output<typeof archivedEmbers>[number];

/** Nine digits at most: a larger page would overflow the database's row offset. */
const positiveInteger = (name: string) =>
  digitsInText(9, `${name} must be a positive integer`).check(
    z.refine((value) => value >= 1, `${name} must be a positive integer`),
  );

/** GET /api/embers?page&limit (docs/product/api.md: defaults 1 and 10). */
export const emberPageQuery = z.object({
  page: z._default(positiveInteger("page"), 1),
  limit: z.pipe(
    z._default(positiveInteger("limit"), EMBERS_PAGE_SIZE),
    z.transform((limit) => Math.min(limit, EMBERS_MAX_LIMIT)),
  ),
});
