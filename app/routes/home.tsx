import { Link } from "react-router";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import type { Route } from "./+types/home";

export function meta({ matches }: Route.MetaArgs) {
  const site = siteFromMatches(matches);
  return pageMeta(site, {
    title: "Home",
    description: `${site.name}: poems read stanza by stanza, a daily ember, and books of belonging.`,
    path: "/",
  });
}

export default function Home({ matches }: Route.ComponentProps) {
  const site = siteFromMatches(matches);
  return (
    <section className="py-16 text-center">
      <h1 className="font-serif text-4xl text-stone-900 md:text-6xl">{site.name}</h1>
      <p className="mx-auto mt-4 max-w-xl text-lg text-stone-700">
        Poems to read slowly, one stanza at a time.
      </p>
      <Link
        to="/poetry"
        className="mt-8 inline-block rounded-full bg-ember-700 px-6 py-3 font-medium text-white hover:bg-ember-800"
      >
        Enter the Collection
      </Link>
    </section>
  );
}
