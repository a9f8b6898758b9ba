import fs from "node:fs";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM_FLAGS, chromiumPath } from "../tests/helpers/browser.ts";
import { READER_PAGES } from "../tests/helpers/reader-pages.ts";
import { startServer } from "../tests/helpers/server.ts";
import { atLeast, atMost, printTargets, type TargetCheck } from "./targets.ts";

/**
 * `npm run audit`: Lighthouse (mobile, default simulated throttling) against the production build
 * on a fresh embedded database with demo content, for the reader's pages (a guest voice's own page
 * needs one published first: tests/e2e/page-weight.test.ts weighs it). Prints the four
 * scores, LCP, CLS, TBT and the compressed JavaScript and CSS each page loads, then the targets
 * (docs/product/performance.md) as met or missed, and writes bench-results/audit.json.
 */
/** AUDIT_PAGES=/poetry,/ember audits only those pages (while working on one). */
const pages = process.env.AUDIT_PAGES ? process.env.AUDIT_PAGES.split(",") : READER_PAGES;
const outDir = path.resolve(import.meta.dirname, "../bench-results");
const reportDir = path.join(outDir, "lighthouse");
fs.mkdirSync(reportDir, { recursive: true });

interface AuditRow {
  page: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  /**
   * Whether search engines may crawl and index the page: search results (`noindex`) and sign-in
   * (disallowed in robots.txt) are kept out on purpose (docs/product/reading.md), which
   * Lighthouse's SEO score counts against them.
   */
  isIndexable: boolean;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  scriptKb: number;
  stylesheetKb: number;
}

const app = await startServer({ LOG_LEVEL: "warn" });
const chrome = await chromeLauncher.launch({
  chromePath: await chromiumPath(),
  chromeFlags: ["--headless=new", ...CHROMIUM_FLAGS],
});
const rows: AuditRow[] = [];
try {
  for (const page of pages) {
    // The first visit fills the page cache and makes the cover sizes the page asks for (they are
    // made on first request); Lighthouse measures what readers get after that.
    const html = await (await fetch(`${app.url}${page}`)).text();
    const images = new Set(html.match(/\/objects\/images\/[^"\s,]+/g));
    await Promise.all(
      [...images].map((image) => fetch(`${app.url}${image}`).then((r) => r.arrayBuffer())),
    );
    const result = await lighthouse(`${app.url}${page}`, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${page}`);
    // The whole report, for what the summary leaves out (the LCP element, its phases, each request).
    fs.writeFileSync(
      path.join(reportDir, `${page.replace(/\W+/g, "-").replace(/^-|-$/g, "") || "home"}.json`),
      JSON.stringify(result.lhr),
    );
    const { categories, audits } = result.lhr;
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    const metric = (id: string) => audits[id]?.numericValue ?? Number.NaN;
    const transfer = (type: string) => {
      const items = (audits["network-requests"]?.details as { items?: unknown[] } | undefined)
        ?.items as { resourceType?: string; transferSize?: number }[] | undefined;
      const bytes = (items ?? [])
        .filter((item) => item.resourceType === type)
        .reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
      return Math.round(bytes / 102.4) / 10;
    };
    rows.push({
      page,
      performance: score("performance"),
      accessibility: score("accessibility"),
      bestPractices: score("best-practices"),
      seo: score("seo"),
      isIndexable: (audits["is-crawlable"]?.score ?? 0) >= 1,
      lcpMs: Math.round(metric("largest-contentful-paint")),
      cls: Math.round(metric("cumulative-layout-shift") * 1000) / 1000,
      tbtMs: Math.round(metric("total-blocking-time")),
      scriptKb: transfer("Script"),
      stylesheetKb: transfer("Stylesheet"),
    });
    for (const [id, category] of Object.entries(categories)) {
      if ((category.score ?? 0) >= 1) continue;
      const failing = category.auditRefs
        .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 1)
        .map((ref) => ref.id);
      if (failing.length > 0) process.stdout.write(`${page} ${id}: ${failing.join(", ")}\n`);
    }
  }
} finally {
  chrome.kill();
  await app.stop();
}

const header = [
  "page",
  "perf",
  "a11y",
  "best",
  "seo",
  "LCP ms",
  "CLS",
  "TBT ms",
  "JS KB",
  "CSS KB",
];
process.stdout.write(
  `\n${header.map((cell, i) => (i === 0 ? cell.padEnd(28) : cell.padStart(7))).join(" ")}\n`,
);
for (const row of rows) {
  const cells = [
    row.page,
    row.performance,
    row.accessibility,
    row.bestPractices,
    row.seo,
    row.lcpMs,
    row.cls,
    row.tbtMs,
    row.scriptKb,
    row.stylesheetKb,
  ];
  process.stdout.write(
    `${cells.map((cell, i) => (i === 0 ? String(cell).padEnd(28) : String(cell).padStart(7))).join(" ")}\n`,
  );
}

/** A target over every audited page, checked on the page that comes closest to missing it. */
function onEveryPage(
  label: string,
  value: (row: AuditRow) => number,
  limit: { atLeast: number } | { atMost: number },
  held: AuditRow[] = rows,
): TargetCheck {
  const sorted = held.toSorted((a, b) => value(a) - value(b));
  if ("atLeast" in limit) {
    const worst = sorted[0] as AuditRow;
    return atLeast(`${label} on every page (lowest: ${worst.page})`, value(worst), limit.atLeast);
  }
  const worst = sorted.at(-1) as AuditRow;
  return atMost(`${label} on every page (highest: ${worst.page})`, value(worst), limit.atMost);
}
const targets = [
  onEveryPage("Performance ≥ 98", (row) => row.performance, { atLeast: 98 }),
  onEveryPage("Accessibility 100", (row) => row.accessibility, { atLeast: 100 }),
  onEveryPage("Best Practices 100", (row) => row.bestPractices, { atLeast: 100 }),
  onEveryPage(
    "SEO 100 (pages that may be indexed)",
    (row) => row.seo,
    { atLeast: 100 },
    rows.filter((row) => row.isIndexable),
  ),
  onEveryPage("LCP ≤ 1,500 ms", (row) => row.lcpMs, { atMost: 1_500 }),
  onEveryPage("CLS ≤ 0.01", (row) => row.cls, { atMost: 0.01 }),
  onEveryPage("TBT ≤ 50 ms", (row) => row.tbtMs, { atMost: 50 }),
  onEveryPage("CSS ≤ 20 KB", (row) => row.stylesheetKb, { atMost: 20 }),
  onEveryPage("JavaScript ≤ 110 KB", (row) => row.scriptKb, { atMost: 110 }),
];
printTargets(targets);
fs.writeFileSync(
  path.join(outDir, "audit.json"),
  `${JSON.stringify({ at: new Date().toISOString(), rows, targets }, null, 2)}\n`,
);
