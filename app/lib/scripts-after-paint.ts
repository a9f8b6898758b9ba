/**
 * A reader's page paints before its scripts are fetched (decision 011).
 *
 * React Router's `<Scripts>` starts every script of a page at once: modulepreload links (React
 * hoists them into the head) and a module script whose static imports fetch the route modules.
 * On a phone they share the connection with the stylesheet and the cover, and the browser
 * evaluates them before its first paint. This rewrites a rendered page so that the module script
 * first waits for the first contentful paint, then preloads the same modules and imports them.
 *
 * The page stays whole whatever React Router renders: without the expected module script it is
 * returned unchanged, and its scripts load at once as before.
 */

/** How long a page that has not painted yet (a slow stylesheet) keeps its scripts waiting. */
export const FIRST_PAINT_WAIT_MS = 3_000;

const MODULE_PRELOAD_LINK = /<link rel="modulepreload" href="([^"]+)"[^>]*\/>/g;
/** React Router's module script: the one that sets `window.__reactRouterRouteModules`. */
const ROUTE_MODULES_SCRIPT =
  /(<script\b[^>]*\btype="module"[^>]*>)((?:(?!<\/script>)[\s\S])*?__reactRouterRouteModules[\s\S]*?)(<\/script>)/;
const STATIC_IMPORT = /import \* as (\w+) from ("[^"]+");/g;

/**
 * Resolves after the first contentful paint; at once in a hidden tab (it paints nothing until
 * shown) and where the browser does not report paints, so no reader waits for nothing.
 */
const AFTER_FIRST_PAINT = `await new Promise((resolve) => {
  if (document.visibilityState !== "visible" || !PerformanceObserver.supportedEntryTypes?.includes("paint")) return resolve();
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName("first-contentful-paint").length === 0) return;
    observer.disconnect();
    resolve();
  }).observe({ type: "paint", buffered: true });
  setTimeout(resolve, ${FIRST_PAINT_WAIT_MS});
});`;

export function scriptsAfterFirstPaint(html: string): string {
  const routeModules = ROUTE_MODULES_SCRIPT.exec(html);
  if (!routeModules) return html;
  const [script, open = "", body = "", close = ""] = routeModules;
  const hrefs: string[] = [];
  const withoutPreloads = html.replace(MODULE_PRELOAD_LINK, (_link, href: string) => {
    hrefs.push(href);
    return "";
  });
  // JSON is valid JavaScript; `<` escaped so no href can close the script element.
  const preloads = JSON.stringify(hrefs).replaceAll("<", "\\u003c");
  const deferred = [
    AFTER_FIRST_PAINT,
    `for (const href of ${preloads}) document.head.append(Object.assign(document.createElement("link"), { rel: "modulepreload", href }));`,
    body.replace(STATIC_IMPORT, "const $1 = await import($2);"),
  ].join("\n");
  return withoutPreloads.replace(script, () => `${open}${deferred}${close}`);
}
