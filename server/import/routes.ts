import { endpoints } from "../../common/endpoints.ts";
import { mounts } from "../../common/mounts.ts";
import { IMPORT_MAX_BYTES, importPreviewQuery } from "../../common/schemas/import.ts";
import { tooLarge } from "../core/errors.ts";
import { answer } from "../http/answer.ts";
import type { AdminEnv } from "../http/env.ts";
import { parseInput } from "../http/json-body.ts";
import { readLimitedBody } from "../http/read-limited-body.ts";
import { routesAt } from "../http/routes.ts";
import type { ImportService } from "./import.ts";

/** Over the import's size limit, naming the file and the limit. */
const overLimit = (fileName: string) =>
  tooLarge(`${fileName} is over the ${IMPORT_MAX_BYTES / 1024 / 1024} MB limit for an import`);

/**
 * The poet's import (docs/product/import.md), on the admin router. The preview's body is the
 * export itself, read up to IMPORT_MAX_BYTES (the API's 100 KB limit for JSON is lifted for this
 * one path in server/app.ts), so it is registered with `.route` and answers through `answer`.
 */
export function importRoutes({ imports }: { imports: ImportService }) {
  return routesAt<AdminEnv>(mounts.admin)
    .route(endpoints.previewImport, async (c) => {
      const query = parseInput(importPreviewQuery, c.req.query());
      const bytes = await readLimitedBody(c.req.raw, IMPORT_MAX_BYTES).catch((error: unknown) => {
        throw (error as { status?: number }).status === 413 ? overLimit(query.fileName) : error;
      });
      const preview = await imports.preview(
        c.var.admin,
        { fileName: query.fileName, bytes },
        query.source,
      );
      return answer(c, endpoints.previewImport, preview);
    })
    .call(endpoints.confirmImport, ({ params, body }, c) =>
      imports.confirm(c.var.admin, params.id, body),
    )
    .call(endpoints.getImportJob, ({ params }, c) => imports.getJob(c.var.admin, params.id))
    .call(endpoints.listImportJobs, (_input, c) => imports.listJobs(c.var.admin))
    .call(endpoints.listImportRedirects, (_input, c) => imports.listRedirects(c.var.admin))
    .call(endpoints.deleteImportRedirect, async ({ params }, c) => {
      await imports.deleteRedirect(c.var.admin, params.id);
    }).router;
}
