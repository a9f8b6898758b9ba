import { describe, expect, it } from "vitest";
import { scriptsAfterFirstPaint } from "./scripts-after-paint.ts";

/** The shape of what React Router 8's <Scripts> renders for a poem page (React hoists the links). */
const page = `<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>
<link rel="modulepreload" href="/assets/entry.client-A.js" nonce="n0"/><link rel="modulepreload" href="/assets/framework-B.js" nonce="n0"/><link rel="modulepreload" href="/assets/poem-C.js" nonce="n0"/>
<link nonce="n0" rel="stylesheet" href="/assets/root-D.css"/></head><body><main>A poem</main>
<script nonce="n0">window.__reactRouterContext = {"ssr":true};</script><script nonce="n0" type="module" async="">;
import * as route0 from "/assets/root-E.js";
import * as route1 from "/assets/poem-C.js";
  window.__reactRouterManifest = {"entry":{"module":"/assets/entry.client-A.js"}};
  window.__reactRouterRouteModules = {"root":route0,"routes/poem":route1};

import("/assets/entry.client-A.js");</script></body></html>`;

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
  body: string,
) => unknown;

function moduleScript(html: string): string {
  return /<script nonce="n0" type="module" async="">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
}

describe("scriptsAfterFirstPaint", () => {
  const rewritten = scriptsAfterFirstPaint(page);
  const script = moduleScript(rewritten);

  it("takes the modulepreload links out of the page and keeps everything else", () => {
    expect(rewritten).not.toContain('modulepreload" href');
    expect(rewritten).toContain('<link nonce="n0" rel="stylesheet" href="/assets/root-D.css"/>');
    expect(rewritten).toContain("<main>A poem</main>");
    expect(rewritten).toContain('window.__reactRouterContext = {"ssr":true};');
  });

  it("waits for the first paint, preloads the same modules, then imports them in order", () => {
    const waits = script.indexOf('getEntriesByName("first-contentful-paint")');
    const preloads = script.indexOf(
      'for (const href of ["/assets/entry.client-A.js","/assets/framework-B.js","/assets/poem-C.js"])',
    );
    const root = script.indexOf('const route0 = await import("/assets/root-E.js");');
    const poem = script.indexOf('const route1 = await import("/assets/poem-C.js");');
    const modules = script.indexOf("window.__reactRouterRouteModules = ");
    const entry = script.indexOf('import("/assets/entry.client-A.js");');
    expect(waits).toBeGreaterThan(-1);
    expect([waits, preloads, root, poem, modules, entry]).toEqual(
      [waits, preloads, root, poem, modules, entry].toSorted((a, b) => a - b),
    );
    expect(Math.min(preloads, root, poem, modules, entry)).toBeGreaterThan(-1);
    expect(script).not.toMatch(/^\s*import \* as/m);
  });

  it("writes a script that parses as JavaScript", () => {
    expect(() => new AsyncFunction(script)).not.toThrow();
  });

  it("keeps a module href from closing the script element", () => {
    const hostile = page.replace("/assets/framework-B.js", "/assets/</script><b>.js");
    expect(moduleScript(scriptsAfterFirstPaint(hostile))).toContain("\\u003c/script>");
  });

  it("leaves a page without React Router's module script as it was", () => {
    const withoutScripts = page.replace(/<script nonce="n0" type="module"[\s\S]*?<\/script>/, "");
    expect(scriptsAfterFirstPaint(withoutScripts)).toBe(withoutScripts);
  });
});
