import { useSearchParams } from "react-router";
import * as pages from "../../common/pages.ts";
import { unsubscribeLink } from "../../common/schemas/subscription.ts";
import { appContext } from "../lib/app-context.ts";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import type { Route } from "./+types/unsubscribe";

/** Whose subscription the link ends, masked; undefined for a link that is not valid. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const link = unsubscribeLink.safeParse(query);
  if (!link.success) return { address: undefined };
  const { services } = context.get(appContext);
  return { address: await services.subscriptions.maskedAddress(link.data.s, link.data.sig) };
}

/** The page names whose subscription the link ends: that holder's alone, never kept by a cache. */
export const headers = () => ({ "Cache-Control": "private, no-store" });

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(siteFromMatches(matches), {
    title: "Unsubscribe",
    description: "Stop the weekly ember digest.",
    path: pages.unsubscribe,
    isIndexable: false,
  });
}

/**
 * The unsubscribe link lands here. Opening it changes nothing (mail scanners follow links); the
 * button's POST unsubscribes.
 */
export default function Unsubscribe({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  if (params.get("done")) {
    return (
      <section className="mx-auto max-w-md py-16 text-center">
        <h1 className="font-serif text-3xl">You are unsubscribed</h1>
        <p className="mt-3 text-stone-700">
          No more digests will be sent. You can subscribe again any time from the footer.
        </p>
      </section>
    );
  }
  if (params.get("invalid") || !loaderData.address) {
    return (
      <section className="mx-auto max-w-md py-16 text-center">
        <h1 className="font-serif text-3xl">This link is not valid</h1>
        <p className="mt-3 text-stone-700">Use the unsubscribe link from your latest email.</p>
      </section>
    );
  }
  return (
    <section className="mx-auto max-w-md py-16 text-center">
      <h1 className="font-serif text-3xl">Unsubscribe from the weekly digest?</h1>
      <p className="mt-3 text-stone-700">
        No more digests will be sent to{" "}
        <span className="font-medium text-stone-900">{loaderData.address}</span>.
      </p>
      <form method="post" action="/api/unsubscribe" className="mt-8">
        <input type="hidden" name="s" value={params.get("s") ?? ""} />
        <input type="hidden" name="sig" value={params.get("sig") ?? ""} />
        <input type="hidden" name="confirm" value="1" />
        <button
          type="submit"
          className="rounded-full bg-ember-700 px-6 py-2.5 font-medium text-white hover:bg-ember-800"
        >
          Unsubscribe
        </button>
      </form>
    </section>
  );
}
