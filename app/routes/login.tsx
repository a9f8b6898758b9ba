import { type FormEvent, useState } from "react";
import { useSearchParams } from "react-router";
import { EMAIL_MESSAGE, parseEmail } from "../../common/email.ts";
import * as pages from "../../common/pages.ts";
import { ApiError, callApi } from "../lib/api.ts";
import { appContext } from "../lib/app-context.ts";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import type { Route } from "./+types/login";

export function loader({ context }: Route.LoaderArgs) {
  const { services } = context.get(appContext);
  return { oidcName: services.accounts.oidcProvider?.name ?? null };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(siteFromMatches(matches), {
    title: "Sign in",
    description: "Sign in with a link sent to your email.",
    path: pages.login,
  });
}

const errorMessages: Record<string, string> = {
  "invalid-link":
    "This sign-in link is no longer valid. It may have expired or been used already. Ask for a new one below.",
  oidc: "Signing in with your provider did not work. Please try again, or use an email link.",
};

/** The sign-in page /api/login leads to: an email link always, OpenID Connect when configured. */
export default function Login({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const returnTo = params.get("returnTo") ?? "/";
  const [email, setEmail] = useState("");
  const [status, setStatus] = useState<"idle" | "sending" | "sent">(
    params.get("sent") ? "sent" : "idle",
  );
  const [message, setMessage] = useState<string | null>(null);
  const error = errorMessages[params.get("error") ?? ""];

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const address = parseEmail(email);
    if (!address) {
      setMessage(EMAIL_MESSAGE);
      return;
    }
    setStatus("sending");
    setMessage(null);
    try {
      await callApi("requestSignInLink", { body: { email: address, returnTo } });
      setStatus("sent");
    } catch (failure) {
      setStatus("idle");
      setMessage(
        failure instanceof ApiError
          ? (failure.serverMessage ?? failure.message)
          : "Something went wrong. Please try again.",
      );
    }
  }

  return (
    <section className="mx-auto max-w-md py-10">
      <h1 className="font-serif text-3xl">Sign in</h1>
      <p className="mt-2 text-stone-700">
        To echo, write whispers and keep your journal in the cloud.
      </p>
      {error && (
        <p
          role="alert"
          className="mt-6 rounded border border-ember-600 bg-ember-50 p-3 text-sm text-ember-900"
        >
          {error}
        </p>
      )}
      {status === "sent" ? (
        <div role="status" className="mt-8 rounded border border-stone-300 bg-white p-5">
          <h2 className="font-serif text-xl">Check your email</h2>
          <p className="mt-2 text-stone-700">
            If that address can sign in, a sign-in link is on its way. It works once, for 15
            minutes.
          </p>
        </div>
      ) : (
        <form
          method="post"
          action="/api/auth/email-link"
          onSubmit={onSubmit}
          noValidate
          className="mt-8 flex flex-col gap-3"
        >
          <input type="hidden" name="returnTo" value={returnTo} />
          <label htmlFor="login-email" className="font-medium">
            Email address
          </label>
          <input
            id="login-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            aria-describedby={message ? "login-error" : undefined}
            className="rounded border border-stone-400 bg-white px-3 py-2"
          />
          {message && (
            <p id="login-error" role="alert" className="text-sm text-red-800">
              {message}
            </p>
          )}
          <button
            type="submit"
            disabled={status === "sending"}
            className="rounded-full bg-ember-700 px-5 py-2.5 font-medium text-white hover:bg-ember-800 disabled:opacity-60"
          >
            Email me a sign-in link
          </button>
        </form>
      )}
      {loaderData.oidcName && (
        <form method="post" action="/api/auth/oidc/start" className="mt-6">
          <input type="hidden" name="returnTo" value={returnTo} />
          <button
            type="submit"
            className="w-full rounded-full border border-stone-500 px-5 py-2.5 font-medium hover:bg-stone-100"
          >
            Continue with {loaderData.oidcName}
          </button>
        </form>
      )}
    </section>
  );
}
