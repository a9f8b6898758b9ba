import * as pages from "../../common/pages.ts";
import { prefixOf } from "../../common/path-builder.ts";

/** What the poet's two reports (site-summary.ts, poem-insights.ts) share as they read counts. */

/** A page's counts are kept under its path: a poem's is this prefix and its slug. */
export const POEM_PATH_PREFIX = prefixOf(pages.poem);

/** A count as a number: PostgreSQL's sums and counts are bigints (they may come as strings), and
 * a sum over no rows is null. */
export const toInt = (value: unknown) => Number(value ?? 0);
