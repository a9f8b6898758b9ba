import * as pages from "../../common/pages.ts";
import { SubscribeForm } from "../components/subscribe-form.tsx";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import type { Route } from "./+types/subscribe-invalid";

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(siteFromMatches(matches), {
    title: "Confirmation link not valid",
    description: "This confirmation link is not valid.",
    path: pages.subscribeInvalid,
    isIndexable: false,
  });
}

/** Where an unknown, used-up or tampered confirmation link lands: it explains and offers a fresh start. */
export default function SubscribeInvalid() {
  return (
    <section className="mx-auto flex max-w-md flex-col gap-6 py-16 text-center">
      <h1 className="font-serif text-3xl">This confirmation link is not valid</h1>
      <p className="text-stone-700">
        It may be old, or it was replaced by a newer one. Subscribe again and we will send a fresh
        link.
      </p>
      <div className="text-left">
        <SubscribeForm />
      </div>
    </section>
  );
}
