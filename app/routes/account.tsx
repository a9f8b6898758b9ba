import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { normaliseDisplayName, splitDisplayName } from "../../common/display-name.ts";
import { endpoints } from "../../common/endpoints.ts";
import * as pages from "../../common/pages.ts";
import * as paths from "../../common/paths.ts";
import type { ReaderAccount } from "../../common/schemas/account.ts";
import { FileUpload } from "../components/admin/file-upload.tsx";
import { CircleUserRound } from "../components/icons.ts";
import { ApiError, callApi } from "../lib/api.ts";
import { appContext } from "../lib/app-context.ts";
import { sharedWithAnonymousReaders } from "../lib/cache-policy.ts";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import { notify, notifyError } from "../lib/toast.ts";
import { forgetCurrentUser } from "../lib/use-current-user.ts";
import { whisperAuthor } from "../lib/whisper-author.ts";
import type { Route } from "./+types/account";

/** Anonymous readers all get the same page (sign in first); a reader's holds their account. */
export const handle = sharedWithAnonymousReaders;

export async function loader({ context }: Route.LoaderArgs) {
  const { services, actor } = context.get(appContext);
  return { account: actor ? await services.readerAccounts.getAccount(actor) : null };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(siteFromMatches(matches), {
    title: "Your account",
    description: "Your name on whispers, your data, and your account.",
    path: pages.account,
    isIndexable: false,
  });
}

const button =
  "inline-flex items-center justify-center gap-2 rounded-full px-4 py-2 text-sm font-medium disabled:opacity-60";
const primaryButton = `${button} bg-ember-700 text-white hover:bg-ember-800`;
const plainButton = `${button} border border-stone-400 bg-white text-stone-800 hover:bg-stone-100`;
const section = "flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-5";

/** The message of a refused call, for the form that sent it. */
const failureOf = (error: unknown) =>
  error instanceof ApiError ? (error.serverMessage ?? error.message) : "Something went awry";

export default function Account({ loaderData }: Route.ComponentProps) {
  const { account } = loaderData;
  if (!account) {
    return (
      <section className="mx-auto flex max-w-xl flex-col items-center gap-4 py-16 text-center">
        <h1 className="font-serif text-4xl text-stone-900">Your account</h1>
        <p className="text-stone-700">Sign in to give your whispers a name and manage your data.</p>
        <a href={paths.login({ returnTo: pages.account })} className={primaryButton}>
          Sign in
        </a>
      </section>
    );
  }
  return <AccountSettings initial={account} />;
}

function AccountSettings({ initial }: { initial: ReaderAccount }) {
  const [account, setAccount] = useState(initial);
  const [name, setName] = useState(initial.displayName ?? "");
  const [nameError, setNameError] = useState<string | undefined>();
  const [isSaving, setSaving] = useState(false);
  const [isConfirmingDelete, setConfirmingDelete] = useState(false);
  const [isLeaving, setLeaving] = useState(false);
  const navigate = useNavigate();
  const preview = splitDisplayName(normaliseDisplayName(name) || null);
  const signature = whisperAuthor({ ...preview, profileImageUrl: null });

  async function save(change: { displayName?: string | null; avatarUrl?: string | null }) {
    setSaving(true);
    setNameError(undefined);
    try {
      const saved = await callApi(endpoints.updateAccount, { body: change });
      setAccount(saved);
      setName(saved.displayName ?? "");
      forgetCurrentUser();
      notify("Account saved", "Your whispers show your name as you set it.");
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) setNameError(failureOf(error));
      else notifyError("Something went awry", "Your account couldn't be saved right now.");
    } finally {
      setSaving(false);
    }
  }

  async function signOutEverywhere() {
    setLeaving(true);
    try {
      await callApi(endpoints.signOutEverywhere, { body: {} });
      forgetCurrentUser();
      notify("Signed out everywhere", "You are signed out on every device.");
      await navigate("/");
    } catch {
      setLeaving(false);
      notifyError("Something went awry", "You couldn't be signed out right now.");
    }
  }

  async function deleteAccount() {
    setLeaving(true);
    try {
      await callApi(endpoints.deleteAccount);
      forgetCurrentUser();
      notify("Account deleted", "Your account and everything of yours are gone.");
      await navigate("/");
    } catch (error) {
      setLeaving(false);
      const isGone = error instanceof ApiError && (error.status === 401 || error.status === 404);
      notifyError(
        isGone ? "Already deleted" : "Something went awry",
        isGone
          ? "This account has already been deleted, or you were signed out."
          : "Your account couldn't be deleted right now.",
      );
    }
  }

  return (
    <section className="mx-auto flex max-w-2xl flex-col gap-6">
      <h1 className="font-serif text-4xl text-stone-900">Your account</h1>

      <section aria-labelledby="account-name" className={section}>
        <h2 id="account-name" className="font-serif text-2xl">
          Your name
        </h2>
        <form
          className="flex flex-col gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            void save({ displayName: name });
          }}
        >
          <label htmlFor="display-name" className="text-sm font-medium text-stone-800">
            Display name
          </label>
          <input
            id="display-name"
            name="displayName"
            value={name}
            autoComplete="name"
            onChange={(event) => setName(event.target.value)}
            aria-describedby="display-name-hint"
            aria-invalid={nameError ? true : undefined}
            aria-errormessage={nameError ? "display-name-error" : undefined}
            className="w-full rounded-lg border border-stone-400 bg-white px-3 py-2"
          />
          <p id="display-name-hint" className="text-sm text-stone-600">
            Your whispers will be signed{" "}
            <strong className="font-semibold text-stone-800" data-testid="name-preview">
              <bdi>{signature}</bdi>
            </strong>
            {/* 'Rowan A.' ends the sentence with its own period. */}
            {signature.endsWith(".") ? "" : "."} Leave it empty to stay anonymous.
          </p>
          {nameError && (
            <p id="display-name-error" role="alert" className="text-sm text-red-800">
              {nameError}
            </p>
          )}
          <div>
            <button type="submit" className={primaryButton} disabled={isSaving}>
              {isSaving ? "Saving..." : "Save name"}
            </button>
          </div>
        </form>
        <div className="flex flex-wrap items-center gap-4 border-t border-stone-100 pt-4">
          {account.avatarUrl ? (
            <img
              src={account.avatarUrl}
              alt="Your avatar"
              width={64}
              height={64}
              className="size-16 rounded-full object-cover"
            />
          ) : (
            <CircleUserRound aria-hidden className="size-16 text-stone-500" />
          )}
          <div className="flex flex-col gap-2">
            <FileUpload
              kind="images"
              uploadEndpoint={endpoints.createAvatarUploadUrl}
              hint="Optional. JPG, PNG or WebP; a square picture works best."
              onUploaded={(file) => void save({ avatarUrl: file.path })}
            />
            {account.avatarUrl && (
              <button
                type="button"
                className={`${plainButton} self-start`}
                onClick={() => void save({ avatarUrl: null })}
              >
                Remove avatar
              </button>
            )}
          </div>
        </div>
      </section>

      <section aria-labelledby="account-email" className={section}>
        <h2 id="account-email" className="font-serif text-2xl">
          Email
        </h2>
        <p className="break-all text-stone-800" data-testid="account-email">
          {account.email}
        </p>
        <p className="text-sm text-stone-600">You sign in with a link sent to this address.</p>
      </section>

      <section aria-labelledby="account-data" className={section}>
        <h2 id="account-data" className="font-serif text-2xl">
          Your data
        </h2>
        <p className="text-stone-700">
          Your journal, whispers and echoes, as one JSON file.{" "}
          <Link to={pages.journal} className="text-ember-800 underline">
            Open your journal
          </Link>
        </p>
        <div>
          <a href={endpoints.exportAccount.path} download="my-account.json" className={plainButton}>
            Download my data
          </a>
        </div>
      </section>

      <section aria-labelledby="account-devices" className={section}>
        <h2 id="account-devices" className="font-serif text-2xl">
          Devices
        </h2>
        <p className="text-stone-700">
          Signs you out here and on every other phone or computer where you are signed in.
        </p>
        <div>
          <button
            type="button"
            className={plainButton}
            disabled={isLeaving}
            onClick={signOutEverywhere}
          >
            Sign out everywhere
          </button>
        </div>
      </section>

      <section aria-labelledby="account-delete" className={`${section} border-red-200`}>
        <h2 id="account-delete" className="font-serif text-2xl">
          Delete account
        </h2>
        <p className="text-stone-700">
          Your name, whispers, echoes, cloud journal and digest subscription are deleted for good.
        </p>
        {isConfirmingDelete ? (
          <fieldset className="flex flex-wrap gap-2">
            <legend className="sr-only">Confirm deletion</legend>
            <button
              type="button"
              className={`${button} bg-red-800 text-white hover:bg-red-900`}
              disabled={isLeaving}
              onClick={deleteAccount}
            >
              Yes, delete my account
            </button>
            <button
              type="button"
              className={plainButton}
              onClick={() => setConfirmingDelete(false)}
            >
              Keep my account
            </button>
          </fieldset>
        ) : (
          <div>
            <button
              type="button"
              className={`${button} border border-red-800 bg-white text-red-800 hover:bg-red-50`}
              onClick={() => setConfirmingDelete(true)}
            >
              Delete account
            </button>
          </div>
        )}
      </section>
    </section>
  );
}
