import { type FormEvent, useState } from "react";
import { EMAIL_MESSAGE, parseEmail } from "../../common/email.ts";
import { ApiError, callApi } from "../lib/api.ts";
import { notify, notifyError } from "../lib/toast.ts";

/** The footer's weekly digest sign-up (docs/product/digest.md, Subscribing). */
export function SubscribeForm() {
  const [email, setEmail] = useState("");
  const [isPending, setPending] = useState(false);
  const [isDone, setDone] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const address = parseEmail(email);
    if (!address) {
      notifyError("Subscription Failed", EMAIL_MESSAGE);
      return;
    }
    setPending(true);
    try {
      const response = await callApi("subscribe", { body: { email: address } });
      notify("Almost there!", response.message);
      setDone(true);
    } catch (error) {
      const message = error instanceof ApiError ? error.serverMessage : undefined;
      notifyError("Subscription Failed", message ?? "Failed to subscribe");
    } finally {
      setPending(false);
    }
  }

  if (isDone) {
    return (
      <div role="status" className="text-sm">
        <p className="font-serif text-lg text-stone-900">Thank You</p>
        <p className="text-stone-700">Please check your email to confirm your subscription.</p>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-2 text-sm" noValidate>
      <label htmlFor="subscribe-email" className="font-serif text-lg text-stone-900">
        The weekly ember digest
      </label>
      <p className="text-stone-700">A few stanzas and the week's embers, once a week.</p>
      <div className="flex gap-2">
        <input
          id="subscribe-email"
          type="email"
          name="email"
          autoComplete="email"
          required
          placeholder="you@example.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          className="min-w-0 flex-1 rounded border border-stone-400 bg-white px-3 py-2"
        />
        <button
          type="submit"
          disabled={isPending}
          className="rounded bg-ember-700 px-4 py-2 font-medium text-white hover:bg-ember-800 disabled:opacity-60"
        >
          Subscribe
        </button>
      </div>
    </form>
  );
}
