/*
 * Declared paths made into addresses and back: the parameters filled in, a query added, a
 * request path matched (docs/decisions/078-every-path-written-once.md). common/paths.ts names
 * the site's addresses with these.
 */

/**
 * `:name` segments of a declared path: "/api/poems/:slug/echo" has "slug", and
 * "/objects/images/:name{[A-Za-z0-9_.-]+}" has "name" (Hono's pattern after a name).
 */
export type PathParams<Path extends string> =
  Path extends `${string}:${infer Segment}/${infer Rest}`
    ? ParamName<Segment> | PathParams<`/${Rest}`>
    : Path extends `${string}:${infer Segment}`
      ? ParamName<Segment>
      : never;
type ParamName<Segment extends string> = Segment extends `${infer Name}{${string}` ? Name : Segment;

type ParamValues<Path extends string> = Record<PathParams<Path>, string | number>;

/**
 * A declared path with its parameters filled in, each percent-encoded:
 * `pathTo(pages.poem, { slug: "thaw" })` is "/poetry/thaw". A path without parameters takes none.
 */
export function pathTo<const Path extends string>(
  path: Path,
  ...[params]: [PathParams<Path>] extends [never] ? [] : [ParamValues<Path>]
): string {
  return fillPath(path, params ?? {});
}

/** `pathTo` for a path known only at run time (the API client's calls). */
export function fillPath(path: string, params: Record<string, string | number>): string {
  // The types ask for every parameter; the browser's bundle carries no check of its own.
  return path.replace(/:(\w+)(\{[^/]*\})?/g, (_segment, name: string) =>
    encodeURIComponent(String(params[name])),
  );
}

/**
 * A path with a query, each value percent-encoded as a path's parameters are; the parameters left
 * undefined are left out.
 */
export function withQuery(
  path: string,
  query: Record<string, string | number | boolean | undefined>,
): string {
  const pairs = Object.entries(query).flatMap(([name, value]) =>
    value === undefined ? [] : [`${name}=${encodeURIComponent(String(value))}`],
  );
  return pairs.length > 0 ? `${path}?${pairs.join("&")}` : path;
}

/** The part of a declared path before its first parameter: "/poetry/:slug" has "/poetry/". */
export function prefixOf(path: string): string {
  const at = path.indexOf(":");
  return at < 0 ? path : path.slice(0, at);
}

/**
 * A declared path as a matcher of request paths: the parameters of a path it matches (still
 * percent-encoded, as the request has them), or undefined. Hono's `{pattern}` after a name is
 * kept; a bare name matches one segment.
 */
export function matcherOf<const Path extends string>(
  path: Path,
): (requestPath: string) => Record<PathParams<Path>, string> | undefined {
  const names: string[] = [];
  const source = path
    .split(/(:\w+(?:\{[^/]*\})?)/)
    .map((part) => {
      const parameter = /^:(\w+)(?:\{([^/]*)\})?$/.exec(part);
      if (!parameter) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(parameter[1] as string);
      return `(${parameter[2] ?? "[^/]+"})`;
    })
    .join("");
  const pattern = new RegExp(`^${source}$`);
  return (requestPath) => {
    const match = pattern.exec(requestPath);
    if (!match) return undefined;
    return Object.fromEntries(names.map((name, at) => [name, match[at + 1] ?? ""])) as Record<
      PathParams<Path>,
      string
    >;
  };
}

/** A declared path in RFC 6570's syntax, as Fedify's dispatchers take it: `:name` is `{name}`. */
export type UriTemplate<Path extends string> =
  Path extends `${infer Head}:${infer Name}/${infer Rest}`
    ? `${Head}{${Name}}/${UriTemplate<Rest>}`
    : Path extends `${infer Head}:${infer Name}`
      ? `${Head}{${Name}}`
      : Path;

export const uriTemplateOf = <const Path extends string>(path: Path) =>
  path.replace(/:(\w+)/g, "{$1}") as UriTemplate<Path>;
