import { useMatches } from "react-router";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import type { Route } from "./+types/coming-soon";

const pageNames: Record<string, string> = {
  journal: "Journal",
};

/** Pages whose issue is still open say so plainly instead of showing invented content. */
export function meta({ matches, location }: Route.MetaArgs) {
  const id = matches.at(-1)?.id ?? "";
  const name = pageNames[id] ?? "Coming soon";
  return pageMeta(siteFromMatches(matches), {
    title: name,
    description: `${name} is coming soon.`,
    path: location.pathname,
  });
}

export default function ComingSoon() {
  const id = useMatches().at(-1)?.id ?? "";
  return (
    <section className="mx-auto max-w-xl py-16 text-center">
      <h1 className="font-serif text-3xl">{pageNames[id] ?? "Coming soon"}</h1>
      <p className="mt-4 text-stone-700">This page is coming soon.</p>
    </section>
  );
}
