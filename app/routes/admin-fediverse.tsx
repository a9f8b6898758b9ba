import { type FormEvent, useState } from "react";
import { endpoints } from "../../common/endpoints.ts";
import type { FediverseBlock } from "../../common/schemas/fediverse.ts";
import { adminCall } from "../components/admin/admin-call.ts";
import { AdminPage } from "../components/admin/admin-page.tsx";
import { FediverseDeliveries } from "../components/admin/fediverse-deliveries.tsx";
import { Field, inputClass, primaryButton, secondaryButton } from "../components/admin/ui.tsx";
import { useAdminList } from "../components/admin/use-admin-list.ts";
import { adminMeta } from "../lib/admin-access.ts";
import { ApiError, callApi } from "../lib/api.ts";
import { reportFailure } from "../lib/api-failure.ts";
import { appContext } from "../lib/app-context.ts";
import { copyText } from "../lib/clipboard.ts";
import { notify, notifyError } from "../lib/toast.ts";
import type { Route } from "./+types/admin-fediverse";

export function loader({ context }: Route.LoaderArgs) {
  return { handle: context.get(appContext).site.fediverseHandle };
}

export const meta = () => adminMeta("Fediverse");

const day = (date: Date) => new Intl.DateTimeFormat("en-US", { dateStyle: "medium" }).format(date);

/**
 * The site on the fediverse, for the poet (docs/product/fediverse.md, In the admin): who
 * follows, and who is blocked.
 */
export default function AdminFediverse({ loaderData }: Route.ComponentProps) {
  return (
    <AdminPage title="Fediverse">
      {loaderData.handle && <Handle handle={loaderData.handle} />}
      <Followers />
      <FediverseDeliveries />
      <Blocks />
    </AdminPage>
  );
}

/** The site's handle, to copy and give out, and how a reader follows it. */
function Handle({ handle }: { handle: string }) {
  async function copy() {
    if (await copyText(handle)) notify("Handle copied", handle);
    else notifyError("Copy failed", "Unable to copy the handle to the clipboard");
  }
  return (
    <section
      aria-labelledby="handle-heading"
      className="mt-8 rounded-lg border border-stone-300 bg-white p-4"
    >
      <h2 id="handle-heading" className="font-serif text-2xl">
        Your handle
      </h2>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <code className="rounded bg-stone-100 px-2 py-1 text-base break-all">{handle}</code>
        <button type="button" className={secondaryButton} onClick={() => void copy()}>
          Copy handle
        </button>
      </div>
      <p className="mt-2 text-sm text-stone-700">
        To follow your poems, a reader searches for {handle} on Mastodon (or any fediverse app) and
        presses Follow; each new poem then reaches them there.
      </p>
    </section>
  );
}

function Followers() {
  const { items: page, isFailed } = useAdminList(endpoints.listFediverseFollowers, {
    query: {},
  });
  return (
    <section aria-labelledby="followers-heading" className="mt-8">
      <h2 id="followers-heading" className="font-serif text-2xl">
        Followers
        {page ? <span className="ml-2 text-base text-stone-600">({page.total})</span> : null}
      </h2>
      {isFailed && <p role="alert">The followers could not be loaded.</p>}
      {page?.total === 0 && (
        <p className="mt-3 text-stone-700">
          Nobody follows yet. Readers follow from Mastodon by searching for the handle shown in the
          footer.
        </p>
      )}
      {page && page.followers.length > 0 && (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-stone-300 text-stone-600">
              <tr>
                <th className="py-2 pr-4 font-medium">Name</th>
                <th className="py-2 pr-4 font-medium">Handle</th>
                <th className="py-2 pr-4 font-medium">Server</th>
                <th className="py-2 font-medium">Since</th>
              </tr>
            </thead>
            <tbody>
              {page.followers.map((follower) => (
                <tr key={follower.actorUrl} className="border-b border-stone-200">
                  <td className="py-2 pr-4 break-words">{follower.name ?? "—"}</td>
                  <td className="py-2 pr-4 break-all">
                    {follower.profileUrl ? (
                      <a
                        href={follower.profileUrl}
                        rel="noopener noreferrer nofollow"
                        className="text-ember-700 underline underline-offset-4"
                      >
                        {follower.handle}
                      </a>
                    ) : (
                      follower.handle
                    )}
                  </td>
                  <td className="py-2 pr-4 break-all">{follower.server}</td>
                  <td className="py-2 whitespace-nowrap">{day(follower.since)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {page.total > page.followers.length && (
            <p className="mt-2 text-sm text-stone-600">
              The {page.followers.length} newest of {page.total} are shown.
            </p>
          )}
        </div>
      )}
    </section>
  );
}

function Blocks() {
  const { items: blocks, isFailed, reload } = useAdminList(endpoints.listFediverseBlocks);
  const [target, setTarget] = useState("");
  const [errors, setErrors] = useState<string[]>();
  const [isSaving, setSaving] = useState(false);

  async function block(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    try {
      const added = await callApi(endpoints.addFediverseBlock, { body: { target } });
      notify("Blocked", `${added.value} is blocked; its followers and whispers are gone.`);
      setTarget("");
      setErrors(undefined);
      await reload();
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        setErrors(error.fieldErrors.target ?? [error.serverMessage ?? "Could not block that"]);
      } else {
        reportFailure(error, "admin", "Failed to block");
      }
    } finally {
      setSaving(false);
    }
  }

  async function unblock(blocked: FediverseBlock) {
    const result = await adminCall(
      endpoints.removeFediverseBlock,
      { params: { id: blocked.id } },
      { success: `${blocked.value} is no longer blocked`, failure: "Failed to unblock" },
    );
    if (result.ok) await reload();
  }

  return (
    <section aria-labelledby="blocks-heading" className="mt-10">
      <h2 id="blocks-heading" className="font-serif text-2xl">
        Blocks
      </h2>
      <p className="mt-2 text-sm text-stone-700">
        A blocked server or account can no longer follow, reply or like; its followers are removed
        and its whispers hidden. Blocking a server blocks its subdomains too: example.social also
        blocks media.example.social.
      </p>
      <form onSubmit={block} className="mt-4 flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1">
          <Field
            label="Server or account"
            name="target"
            errors={errors}
            hint="example.social, @name@example.social, or an account's address"
          >
            {(props) => (
              <input
                {...props}
                value={target}
                onChange={(event) => setTarget(event.target.value)}
                className={inputClass}
                autoComplete="off"
              />
            )}
          </Field>
        </div>
        <button
          type="submit"
          className={`${primaryButton} sm:mt-6`}
          disabled={isSaving || !target.trim()}
        >
          Block
        </button>
      </form>
      {isFailed && <p role="alert">The blocks could not be loaded.</p>}
      {blocks?.length === 0 && <p className="mt-4 text-stone-700">Nothing is blocked.</p>}
      <ul className="mt-4 space-y-2">
        {blocks?.map((blocked) => (
          <li
            key={blocked.id}
            className="flex flex-wrap items-center justify-between gap-2 rounded border border-stone-300 bg-white px-4 py-2"
          >
            <span className="min-w-0 break-all">
              <span className="mr-2 rounded bg-stone-100 px-2 py-0.5 text-xs text-stone-800">
                {blocked.kind === "server" ? "Server" : "Account"}
              </span>
              {blocked.value}
            </span>
            <button type="button" className={secondaryButton} onClick={() => unblock(blocked)}>
              Unblock
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
