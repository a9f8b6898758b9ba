import { Hono } from "hono";
import type { AppEnv } from "../http/env.ts";
import { detectImageType } from "../storage/image-type.ts";
import type { ObjectStore } from "../storage/local.ts";

/** Stored images at /objects/images/{id}: their true type, nosniff, cached for a year. */
export function objectRoutes(store: ObjectStore) {
  return new Hono<AppEnv>().get("/images/:id{[A-Za-z0-9_-]+}", async (c) => {
    const bytes = await store.get(`images/${c.req.param("id")}`);
    const type = bytes && detectImageType(bytes);
    if (!bytes || !type) return c.json({ message: "Not found" }, 404);
    return c.body(new Uint8Array(bytes), 200, {
      "Content-Type": type,
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    });
  });
}
