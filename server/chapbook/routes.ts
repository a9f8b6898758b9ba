import { endpoints } from "../../common/endpoints.ts";
import { mounts } from "../../common/mounts.ts";
import * as otherRoutes from "../../common/other-routes.ts";
import type { AdminEnv, AppEnv } from "../http/env.ts";
import { routesAt } from "../http/routes.ts";
import type { ChapbookService } from "./chapbooks.ts";

/** How long a reader is asked to wait while a chapbook's files are being made. */
const RETRY_AFTER_SECONDS = 10;
const TYPES = { pdf: "application/pdf", epub: "application/epub+zip" } as const;

/** The poet's chapbook calls (docs/product/chapbook.md), on the admin router. */
export function chapbookAdminRoutes({ chapbooks }: { chapbooks: ChapbookService }) {
  return routesAt<AdminEnv>(mounts.admin)
    .call(endpoints.listChapbooks, (_input, c) => chapbooks.list(c.var.admin))
    .call(endpoints.createChapbook, ({ body }, c) => chapbooks.create(c.var.admin, body))
    .call(endpoints.getChapbook, ({ params }, c) => chapbooks.get(c.var.admin, params.id))
    .call(endpoints.updateChapbook, ({ params, body }, c) =>
      chapbooks.update(c.var.admin, params.id, body),
    )
    .call(endpoints.deleteChapbook, async ({ params }, c) => {
      await chapbooks.remove(c.var.admin, params.id);
    }).router;
}

/**
 * A download's file name: the title, with what file systems refuse taken out, and the same
 * title in full for clients that read RFC 6266's `filename*`.
 */
export function attachmentName(title: string, extension: string): string {
  const plain =
    title
      .replace(/[^\x20-\x7e]/g, "")
      .replace(/["\\/:*?<>|]/g, "")
      .trim() || "chapbook";
  return `attachment; filename="${plain}.${extension}"; filename*=UTF-8''${encodeURIComponent(`${title}.${extension}`)}`;
}

/**
 * /chapbooks/{slug}.pdf and .epub: the file to anyone when the chapbook is downloadable, to the
 * admin always, 404 otherwise; 503 with Retry-After while its files are being made. Its ETag
 * names what the files were made from, so it changes exactly when they do.
 */
export function chapbookFileRoutes(services: { chapbooks: ChapbookService }) {
  return routesAt<AppEnv>("/").route(otherRoutes.chapbookFile, async (c) => {
    const file = c.req.param("file");
    const format = file.endsWith(".pdf") ? "pdf" : "epub";
    const slug = file.slice(0, -(format.length + 1));
    const download = await services.chapbooks.download(c.get("actor"), slug, format);
    c.header("Cache-Control", "private, no-cache");
    if (download.state === "missing") return c.text("404 Page Not Found", 404);
    if (download.state === "building") {
      c.header("Retry-After", String(RETRY_AFTER_SECONDS));
      return c.text("This chapbook is being made; try again in a few seconds", 503);
    }
    c.header("ETag", download.etag);
    if (c.req.header("if-none-match") === download.etag) return c.body(null, 304);
    c.header("Content-Type", TYPES[format]);
    c.header("Content-Disposition", attachmentName(download.title, format));
    return c.body(new Uint8Array(download.bytes));
  }).router;
}
