import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { ServerBuild } from "react-router";
import { createPageHandler, type PageHandler } from "../../server/http/page-handler.ts";

const root = path.resolve(import.meta.dirname, "../..");

/** React Router's handler for the production build, building once if `npm test` has not. */
export async function loadPageHandler(): Promise<{ pageHandler: PageHandler; build: ServerBuild }> {
  const entry = path.join(root, "build/server/index.js");
  if (!fs.existsSync(entry)) {
    const result = spawnSync(path.join(root, "node_modules/.bin/react-router"), ["build"], {
      cwd: root,
      stdio: "inherit",
    });
    if (result.status !== 0) throw new Error("react-router build failed");
  }
  const build = (await import(entry)) as ServerBuild;
  return { pageHandler: createPageHandler(build, "production"), build };
}

/** Every page path the build routes, each nested route's path joined to its parents'. */
export function pagePaths(build: ServerBuild): string[] {
  const fullPath = (id: string): string => {
    const route = build.routes[id];
    if (!route) return "";
    const parent = route.parentId ? fullPath(route.parentId) : "";
    return route.path ? `${parent}/${route.path}`.replace(/\/+/g, "/") : parent;
  };
  const paths = Object.keys(build.routes).map((id) => fullPath(id) || "/");
  return [...new Set(paths)].map((page) => page.replace(/\*$/, "no-such-page"));
}
