import { describe, expect, it } from "vitest";
import routes from "../app/routes.ts";
import { endpoints } from "./endpoints.ts";
import * as otherRoutes from "./other-routes.ts";
import * as pages from "./pages.ts";
import { redirectKey, SITE_PATH_SEGMENTS } from "./site-pages.ts";

type RouteEntry = { path?: string; index?: boolean; children?: RouteEntry[] };
/** Every page path the route config registers, whole ("/admin/digest"). */
const registeredPaths = (entries: RouteEntry[], parent = ""): string[] =>
  entries.flatMap((entry) => {
    if (entry.path === "*") return [];
    const path = entry.path ? `${parent}/${entry.path}` : parent || "/";
    return [
      ...(entry.index || entry.path ? [path] : []),
      ...registeredPaths(entry.children ?? [], path),
    ];
  });

describe("the site's own paths (docs/decisions/052-the-import-job.md)", () => {
  it("registers every declared page in app/routes.ts, and no other", () => {
    expect(new Set(registeredPaths(routes))).toEqual(new Set(Object.values(pages)));
  });

  it("names the first segment of every page in app/routes.ts", () => {
    const firstSegments = (entries: Array<{ path?: string; children?: unknown }>): string[] =>
      entries.flatMap((entry) => {
        const first = entry.path?.split("/")[0];
        return first && first !== "*" ? [first] : [];
      });
    for (const segment of firstSegments(routes)) {
      expect(SITE_PATH_SEGMENTS.has(segment), segment).toBe(true);
    }
  });

  it("names the first segment of every other route and JSON call the server declares", () => {
    const declared = [...Object.values(otherRoutes), ...Object.values(endpoints)];
    for (const { path } of declared) {
      const segment = path.split("/")[1] ?? "";
      expect(SITE_PATH_SEGMENTS.has(segment), path).toBe(true);
    }
  });

  it("keeps an old address without its trailing slash, and WordPress's ?p= on the home page", () => {
    expect(redirectKey("/p/salt-road")).toBe("/p/salt-road");
    expect(redirectKey("/salt-road/")).toBe("/salt-road");
    expect(redirectKey("/2019/03/04/salt-road/")).toBe("/2019/03/04/salt-road");
    expect(redirectKey("/?p=42")).toBe("/?p=42");
    expect(redirectKey("/café/")).toBe("/caf%C3%A9");
  });

  it("never redirects this site's own pages, the home page or what is not a path", () => {
    for (const path of [
      "/about/",
      "/About",
      "/poetry/salt-road",
      "/",
      "/?s=x",
      "//evil.example/x",
      "https://x.example/a",
      "/api/health",
    ]) {
      expect(redirectKey(path)).toBeUndefined();
    }
  });
});
