import { useSearchParams } from "react-router";
import * as pages from "../../common/pages.ts";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import type { Route } from "./+types/login-verify";

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(siteFromMatches(matches), {
    title: "Continue signing in",
    description: "Continue signing in.",
    path: pages.loginVerify,
    isIndexable: false,
  });
}

/**
 * Where an emailed link lands. Opening it changes nothing: only the Continue button's POST signs
 * in, so mail scanners that fetch links neither sign the reader in nor use up the link.
 */
export default function LoginVerify() {
  const [params] = useSearchParams();
  return (
    <section className="mx-auto max-w-md py-16 text-center">
      {/* The same words for a first sign-in as for a return: 'back' would be wrong the first time. */}
      <h1 className="font-serif text-3xl">Welcome</h1>
      <p className="mt-3 text-stone-700">Continue to finish signing in.</p>
      <form method="post" action="/api/auth/email-link/verify" className="mt-8">
        <input type="hidden" name="token" value={params.get("token") ?? ""} />
        <input type="hidden" name="returnTo" value={params.get("returnTo") ?? "/"} />
        <button
          type="submit"
          className="rounded-full bg-ember-700 px-8 py-3 font-medium text-white hover:bg-ember-800"
        >
          Continue
        </button>
      </form>
    </section>
  );
}
