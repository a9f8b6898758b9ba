import { describe, expect, it } from "vitest";
import * as otherRoutes from "./other-routes.ts";
import * as pages from "./pages.ts";
import { matcherOf, pathTo, prefixOf, withQuery } from "./path-builder.ts";
import * as paths from "./paths.ts";

describe("paths built from the declarations (docs/decisions/078-every-path-written-once.md)", () => {
  it("fills a declared path's parameters, percent-encoded, Hono's patterns and all", () => {
    expect(pathTo(pages.poem, { slug: "thaw" })).toBe("/poetry/thaw");
    expect(pathTo(pages.poem, { slug: "a b/c" })).toBe("/poetry/a%20b%2Fc");
    expect(pathTo(otherRoutes.storedImage.path, { name: "x.webp" })).toBe("/objects/images/x.webp");
    expect(pathTo(pages.about)).toBe("/about");
    expect(paths.stanzaCard("thaw", 2)).toBe("/og/stanza/thaw/2.png");
    expect(paths.chapbookFile("salt-road", "epub")).toBe("/chapbooks/salt-road.epub");
    expect(paths.sharedStanza("thaw", 0)).toBe("/share/poem/thaw?s=0");
    expect(paths.stanza("thaw", 3)).toBe("/poetry/thaw#s-3");
  });

  it("leaves out the query parameters that are not given", () => {
    expect(withQuery("/login", { returnTo: undefined, error: "oidc" })).toBe("/login?error=oidc");
    expect(paths.login()).toBe("/login");
    expect(paths.login({ returnTo: "/poetry?x=1" })).toBe("/login?returnTo=%2Fpoetry%3Fx%3D1");
  });

  it("matches request paths against a declaration, and nothing longer or shorter", () => {
    const poem = matcherOf(pages.poem);
    expect(poem("/poetry/thaw")).toEqual({ slug: "thaw" });
    expect(poem("/poetry/thaw/x")).toBeUndefined();
    expect(poem("/poetry/")).toBeUndefined();
    const card = matcherOf(otherRoutes.stanzaCard.path);
    expect(card("/og/stanza/thaw/2.png")).toEqual({ slug: "thaw", file: "2.png" });
    expect(card("/og/stanza/thaw/2.jpg")).toBeUndefined();
    expect(prefixOf(pages.poem)).toBe("/poetry/");
    expect(prefixOf(pages.about)).toBe("/about");
  });
});
