/**
 * The reader's pages on the demo content, one of each kind, as the audit (scripts/audit.ts) and
 * the JavaScript budget test (tests/e2e/page-weight.test.ts) visit them
 * (docs/product/performance.md). A guest voice's own page is not here: the demo content publishes
 * none, so the budget test publishes one and weighs it too.
 */
export const READER_PAGES = [
  "/",
  "/poetry",
  "/poetry/the-kitchen-table",
  "/ember",
  "/books",
  "/book/the-shape-of-belonging/preview",
  "/guest-voices",
  "/journal",
  "/search?q=river",
  "/login",
  "/contribute",
  "/about",
];
