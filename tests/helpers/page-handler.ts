import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createRequestHandler, type ServerBuild } from "react-router";
import type { PageHandler } from "../../server/app.ts";

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
  const handler = createRequestHandler(build, "production");
  return { pageHandler: (request, context) => handler(request, context), build };
}
