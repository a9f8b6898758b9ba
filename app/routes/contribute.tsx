import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { CONTRIBUTION_BIO_MAX_LENGTH } from "../../common/constants.ts";
import type { endpoints } from "../../common/endpoints.ts";
import { BIO_TOO_LONG, DECOY_FIELD, MISSING_FIELDS } from "../../common/guest-submission-form.ts";
import * as pages from "../../common/pages.ts";
import { type CallRequest, callApi } from "../lib/api.ts";
import { sharedPage } from "../lib/cache-policy.ts";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import { notifyError } from "../lib/toast.ts";
import type { Route } from "./+types/contribute";

type GuestSubmissionRequest = CallRequest<typeof endpoints.submitGuestPoem>["body"];

/** The same page for every reader of an audience: the page cache may keep it. */
export const handle = sharedPage;

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(siteFromMatches(matches), {
    title: "Submit a poem",
    description:
      "Share your poem for consideration as a guest voice. Submissions are reviewed monthly.",
    path: pages.contribute,
  });
}

const emptyForm = {
  name: "",
  email: "",
  handle: "",
  socialUrl: "",
  bio: "",
  poemTitle: "",
  poemText: "",
};
type FormFields = typeof emptyForm;

const inputClass = "w-full rounded border border-stone-400 bg-white px-3 py-2";

export default function Contribute({ matches }: Route.ComponentProps) {
  const site = siteFromMatches(matches);
  const [fields, setFields] = useState<FormFields>(emptyForm);
  const [hasConsent, setConsent] = useState(false);
  const [decoy, setDecoy] = useState("");
  const [status, setStatus] = useState<"editing" | "submitting" | "done">("editing");

  const set = (name: keyof FormFields) => (event: { target: { value: string } }) =>
    setFields((current) => ({ ...current, [name]: event.target.value }));

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    // A filled decoy means a bot: nothing is sent and nothing changes (docs/product/reading.md).
    if (decoy) return;
    const required = [fields.name, fields.email, fields.poemTitle, fields.poemText];
    if (required.some((value) => !value.trim()) || !hasConsent) {
      notifyError(MISSING_FIELDS.title, MISSING_FIELDS.description);
      return;
    }
    if (fields.bio.length > CONTRIBUTION_BIO_MAX_LENGTH) {
      notifyError(BIO_TOO_LONG.title, BIO_TOO_LONG.description);
      return;
    }
    // Empty optional fields are left out of the request; the required ones were checked above.
    const body = Object.fromEntries(
      Object.entries(fields).filter(([, value]) => value.trim() !== ""),
    ) as GuestSubmissionRequest;
    setStatus("submitting");
    try {
      await callApi("submitGuestPoem", { body });
      setStatus("done");
    } catch {
      setStatus("editing");
      notifyError(
        "Submission failed",
        "There was an error submitting your piece. Please try again.",
      );
    }
  }

  if (status === "done") {
    return (
      <section className="mx-auto flex max-w-xl flex-col items-center gap-4 py-16 text-center">
        <h1 className="font-serif text-4xl">Thank you</h1>
        <p className="text-stone-700">
          Your piece is with us. Submissions are reviewed monthly, and we read every one.
        </p>
        <div className="mt-4 flex flex-wrap justify-center gap-3">
          <Link
            to={pages.guestVoices}
            className="rounded-full bg-ember-700 px-5 py-2 font-medium text-white hover:bg-ember-800"
          >
            Explore Guest Voices
          </Link>
          <button
            type="button"
            onClick={() => {
              setFields(emptyForm);
              setConsent(false);
              setStatus("editing");
            }}
            className="rounded-full border border-ember-700 px-5 py-2 font-medium text-ember-800 hover:bg-ember-50"
          >
            Submit another piece
          </button>
        </div>
      </section>
    );
  }

  return (
    <section className="mx-auto flex max-w-2xl flex-col gap-6">
      <h1 className="font-serif text-4xl text-stone-900">Submit a poem</h1>
      <p className="text-stone-700">Share your ember. Submissions are reviewed monthly.</p>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
        <div className="grid gap-5 md:grid-cols-2">
          <label className="flex flex-col gap-1">
            <span className="font-medium">Name*</span>
            <input
              name="name"
              autoComplete="name"
              required
              value={fields.name}
              onChange={set("name")}
              className={inputClass}
            />
          </label>
          <label className="flex flex-col gap-1">
            <span className="font-medium">Email*</span>
            <input
              name="email"
              type="email"
              autoComplete="email"
              required
              value={fields.email}
              onChange={set("email")}
              className={inputClass}
            />
          </label>
          <label className="flex flex-col gap-1">
            <span className="font-medium">Handle</span>
            <input
              name="handle"
              placeholder="@yourhandle"
              value={fields.handle}
              onChange={set("handle")}
              className={inputClass}
            />
          </label>
          <label className="flex flex-col gap-1">
            <span className="font-medium">Social/Website URL</span>
            <input
              name="socialUrl"
              type="url"
              autoComplete="url"
              value={fields.socialUrl}
              onChange={set("socialUrl")}
              className={inputClass}
            />
          </label>
        </div>
        <label className="flex flex-col gap-1">
          <span className="font-medium">Short bio</span>
          <textarea
            name="bio"
            rows={2}
            maxLength={CONTRIBUTION_BIO_MAX_LENGTH}
            value={fields.bio}
            onChange={set("bio")}
            aria-describedby="bio-counter"
            className={inputClass}
          />
          <span id="bio-counter" className="self-end text-xs text-stone-600">
            {fields.bio.length}/{CONTRIBUTION_BIO_MAX_LENGTH}
          </span>
        </label>
        <label className="flex flex-col gap-1">
          <span className="font-medium">Poem title*</span>
          <input
            name="poemTitle"
            required
            value={fields.poemTitle}
            onChange={set("poemTitle")}
            className={inputClass}
          />
        </label>
        <label className="flex flex-col gap-1">
          <span className="font-medium">Poem text*</span>
          <textarea
            name="poemText"
            rows={10}
            required
            value={fields.poemText}
            onChange={set("poemText")}
            className={`${inputClass} font-serif`}
          />
        </label>
        {/* The decoy: hidden from people and assistive technology, filled by bots. */}
        <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
          <label>
            Fax
            <input
              name={DECOY_FIELD}
              tabIndex={-1}
              autoComplete="off"
              value={decoy}
              onChange={(event) => setDecoy(event.target.value)}
            />
          </label>
        </div>
        <label className="flex items-start gap-3">
          <input
            type="checkbox"
            name="consent"
            required
            checked={hasConsent}
            onChange={(event) => setConsent(event.target.checked)}
            className="mt-1 h-4 w-4 accent-ember-700"
          />
          <span>
            I confirm this is my original work and grant {site.name} permission to publish it.*
          </span>
        </label>
        <button
          type="submit"
          disabled={status === "submitting"}
          className="self-start rounded-full bg-ember-700 px-6 py-2.5 font-medium text-white hover:bg-ember-800 disabled:opacity-60"
        >
          Submit
        </button>
      </form>
    </section>
  );
}
