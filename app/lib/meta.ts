import type { MetaDescriptor } from "react-router";
import type { SiteInfo } from "../../common/load-context.ts";

export interface PageMeta {
  /**
   * The page's own name; the document title is '{title} | {site name}'
   * (docs/product/reading.md, Titles and metadata).
   */
  title: string;
  description: string;
  /** Path of the canonical URL, e.g. '/poetry/a-slug'. */
  path: string;
  /** Share image: absolute, or a path on this site. */
  image?: string;
  type?: "website" | "article";
  /** Personal or transient pages ask search engines not to index them. */
  isIndexable?: boolean;
}

/** The site facts from the root loader, as every route's meta function sees them. */
export function siteFromMatches(matches: ReadonlyArray<unknown>): SiteInfo {
  const root = matches.find(
    (match): match is { id: string; loaderData: { site: SiteInfo } } =>
      (match as { id?: string } | undefined)?.id === "root",
  );
  if (!root?.loaderData) throw new Error("root loader data is missing");
  return root.loaderData.site;
}

/**
 * Title, description, robots, canonical, Open Graph and Twitter tags for one page (docs/product/
 * reading.md, Titles and metadata), rendered on the server so link previews work without
 * JavaScript.
 */
export function pageMeta(site: SiteInfo, page: PageMeta): MetaDescriptor[] {
  const title = `${page.title} | ${site.name}`;
  const url = new URL(page.path, site.publicUrl).toString();
  const image = page.image ? new URL(page.image, site.publicUrl).toString() : undefined;
  return [
    { title },
    { name: "description", content: page.description },
    { name: "robots", content: page.isIndexable === false ? "noindex, follow" : "index, follow" },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: site.name },
    { property: "og:title", content: title },
    { property: "og:description", content: page.description },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:url", content: url },
    ...(image ? [{ property: "og:image", content: image }] : []),
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: page.description },
    ...(image ? [{ name: "twitter:image", content: image }] : []),
  ];
}
