import { Link } from "react-router";
import * as pages from "../../common/pages.ts";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import type { Route } from "./+types/subscribe-confirmed";

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(siteFromMatches(matches), {
    title: "Subscription confirmed",
    description: "Your subscription to the weekly ember digest is confirmed.",
    path: pages.subscribeConfirmed,
    isIndexable: false,
  });
}

/**
 * Where a subscription's confirmation link lands (docs/product/reading.md, After confirming a
 * subscription): it says the subscription holds, so the reader need not catch a toast.
 */
export default function SubscribeConfirmed() {
  return (
    <section className="mx-auto flex max-w-md flex-col gap-6 py-16 text-center">
      <h1 className="font-serif text-3xl text-stone-900">Subscription confirmed</h1>
      <p className="text-stone-700">
        The weekly ember digest is on its way to you: a few stanzas and the week's embers, once a
        week. Every digest has a link to stop it.
      </p>
      <Link
        to={pages.poetry}
        className="mx-auto rounded-full bg-ember-700 px-6 py-2.5 font-medium text-white hover:bg-ember-800"
      >
        Read the poems
      </Link>
    </section>
  );
}
