import { useEffect, useState } from "react";
import { Link } from "react-router";
import { endpoints } from "../../../common/endpoints.ts";
import * as paths from "../../../common/paths.ts";
import type { ModeratedWhisper } from "../../../common/schemas/admin.ts";
import { notify } from "../../lib/toast.ts";
import { FediverseAvatar } from "../fediverse-whisper.tsx";
import { CircleUserRound } from "../icons.ts";
import { adminCall } from "./admin-call.ts";
import { secondaryButton } from "./ui.tsx";
import { useAdminList } from "./use-admin-list.ts";

type Filter = "all" | "awaiting" | "approved" | "hidden";
const FILTERS: { id: Filter; label: string }[] = [
  { id: "all", label: "All" },
  { id: "awaiting", label: "Awaiting approval" },
  { id: "approved", label: "Approved" },
  { id: "hidden", label: "Hidden" },
];

/** Held for approval (new whispers held, a fediverse reply), approved, or hidden by the poet. */
function stateOf(whisper: ModeratedWhisper): Exclude<Filter, "all"> {
  if (whisper.isApproved) return "approved";
  return whisper.isAwaitingApproval ? "awaiting" : "hidden";
}

const STATE_BADGES: Record<Exclude<Filter, "all">, { label: string; className: string }> = {
  awaiting: { label: "Awaiting approval", className: "bg-sky-100 text-sky-900" },
  approved: { label: "Approved", className: "bg-green-100 text-green-900" },
  hidden: { label: "Hidden", className: "bg-amber-100 text-amber-900" },
};

const authorName = (whisper: ModeratedWhisper) =>
  [whisper.user.firstName, whisper.user.lastName].filter(Boolean).join(" ") || "Anonymous";

/** How the poet tells writers apart: a reader by their address, a fediverse author by handle. */
const writerAddress = (whisper: ModeratedWhisper) =>
  whisper.fediverse?.handle ?? whisper.user.email ?? "";

const postedAt = (date: Date) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" }).format(date);

/**
 * Moves a whisper to another stanza of its poem (a reply from the fediverse to the whole poem
 * lands on the first): the stanza chosen, then Move.
 */
function MoveToStanza({
  whisper,
  onMoved,
}: {
  whisper: ModeratedWhisper;
  onMoved: () => Promise<void>;
}) {
  const [stanzaIndex, setStanzaIndex] = useState(whisper.stanzaIndex);
  const id = `move-whisper-${whisper.id}`;
  async function move() {
    const result = await adminCall(
      endpoints.moveWhisper,
      { params: { id: whisper.id }, body: { stanzaIndex } },
      { failure: "Failed to move whisper" },
    );
    if (!result.ok) return;
    await onMoved();
    notify("Whisper moved", `It is now on stanza ${stanzaIndex + 1}.`);
  }
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm text-stone-700">
        Move to stanza
      </label>
      <select
        id={id}
        value={stanzaIndex}
        onChange={(event) => setStanzaIndex(Number(event.target.value))}
        className="rounded border border-stone-400 bg-white px-2 py-1.5 text-sm"
      >
        {Array.from({ length: whisper.stanzaCount }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a stanza is its position.
          <option key={index} value={index}>
            {index + 1}
          </option>
        ))}
      </select>
      <button
        type="button"
        className={secondaryButton}
        disabled={stanzaIndex === whisper.stanzaIndex}
        onClick={move}
      >
        Move
      </button>
    </div>
  );
}

/**
 * Whisper moderation (docs/product/admin.md, Whispers): a filter with counts, and Hide or Approve
 * on each whisper; a reply from the fediverse is marked so, with its author's handle and links,
 * and any whisper may be moved to another stanza of its poem.
 */
export function WhispersTab({
  onAwaitingCount,
}: {
  /** Told how many whispers await approval each time the list is read (the tab's count). */
  onAwaitingCount?: (count: number) => void;
}) {
  const { items: whispers, isFailed, reload } = useAdminList(endpoints.listModeratedWhispers);
  const [filter, setFilter] = useState<Filter>("all");
  const count = (id: Filter) =>
    (whispers ?? []).filter((whisper) => id === "all" || stateOf(whisper) === id).length;
  const shown = (whispers ?? []).filter(
    (whisper) => filter === "all" || stateOf(whisper) === filter,
  );
  useEffect(() => {
    if (whispers) onAwaitingCount?.(whispers.filter((w) => stateOf(w) === "awaiting").length);
  }, [whispers, onAwaitingCount]);

  async function moderate(whisper: ModeratedWhisper, action: "hide" | "approve") {
    const result = await adminCall(
      action === "hide" ? endpoints.hideWhisper : endpoints.approveWhisper,
      { params: { id: whisper.id }, body: {} },
      { failure: action === "hide" ? "Failed to hide whisper" : "Failed to approve whisper" },
    );
    if (!result.ok) return;
    await reload();
    if (action === "hide")
      notify("Whisper Hidden", "The reflection is no longer visible to users.");
    else notify("Whisper Approved", "The reflection is now visible to all users.");
  }

  /** Blocking a writer hides every whisper of theirs and stops new ones (decision 041). */
  async function setBlocked(whisper: ModeratedWhisper, isBlocked: boolean) {
    const result = await adminCall(
      isBlocked ? endpoints.blockReader : endpoints.unblockReader,
      { params: { userId: whisper.user.id }, body: {} },
      { failure: isBlocked ? "Failed to block reader" : "Failed to unblock reader" },
    );
    if (!result.ok) return;
    await reload();
    if (isBlocked)
      notify(
        "Reader blocked",
        "Their whispers are hidden, and they can no longer echo or whisper.",
      );
    else notify("Reader unblocked", "The whispers you approved are visible again.");
  }

  return (
    <section aria-label="Whispers">
      <fieldset className="mb-5 flex flex-wrap gap-2">
        <legend className="sr-only">Show whispers</legend>
        {FILTERS.map((option) => (
          <label
            key={option.id}
            className={`cursor-pointer rounded-full border px-4 py-1.5 text-sm has-[:focus-visible]:outline-2 ${
              filter === option.id
                ? "border-ember-700 bg-ember-700 text-white"
                : "border-stone-400 bg-white text-stone-800"
            }`}
          >
            <input
              type="radio"
              name="whisper-filter"
              value={option.id}
              checked={filter === option.id}
              onChange={() => setFilter(option.id)}
              className="sr-only"
            />
            {option.label} ({count(option.id)})
          </label>
        ))}
      </fieldset>
      {isFailed && <p role="alert">The whispers could not be loaded.</p>}
      {whispers && shown.length === 0 && <p className="text-stone-700">No whispers found</p>}
      <ul className="space-y-3">
        {shown.map((whisper) => (
          <li
            key={whisper.id}
            className="flex flex-wrap gap-3 rounded-lg border border-stone-300 bg-white p-4"
          >
            {whisper.fediverse ? (
              <FediverseAvatar origin={whisper.fediverse} />
            ) : whisper.user.profileImageUrl ? (
              <img
                src={whisper.user.profileImageUrl}
                alt=""
                width={40}
                height={40}
                className="size-10 rounded-full object-cover"
              />
            ) : (
              <CircleUserRound aria-hidden className="size-10 text-stone-500" />
            )}
            <div className="min-w-0 flex-1">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-medium">
                  <bdi>{authorName(whisper)}</bdi>
                </span>
                <span className="break-all text-sm text-stone-600">
                  <bdi>{writerAddress(whisper)}</bdi>
                </span>
                {whisper.fediverse && (
                  <span className="rounded bg-sky-100 px-2 py-0.5 text-xs text-sky-900">
                    From the fediverse
                  </span>
                )}
                {whisper.user.isBlocked && (
                  <span className="rounded bg-red-100 px-2 py-0.5 text-xs text-red-900">
                    Writer blocked
                  </span>
                )}
                <span
                  className={`rounded px-2 py-0.5 text-xs ${STATE_BADGES[stateOf(whisper)].className}`}
                >
                  {STATE_BADGES[stateOf(whisper)].label}
                </span>
              </p>
              <p className="mt-1 whitespace-pre-line break-words">{whisper.text}</p>
              {whisper.fediverse?.isCut && (
                <p className="mt-1 text-xs text-stone-600">
                  Readers see the first 280 characters, with a link to the whole reply.
                </p>
              )}
              <p className="mt-1 text-xs text-stone-600">
                {postedAt(whisper.createdAt)}
                {" · "}
                <Link
                  to={paths.stanza(whisper.poemSlug, whisper.stanzaIndex)}
                  className="underline"
                >
                  {whisper.poemTitle}, stanza {whisper.stanzaIndex + 1}
                </Link>
                {whisper.fediverse?.profileUrl && (
                  <>
                    {" · "}
                    <a
                      href={whisper.fediverse.profileUrl}
                      rel="nofollow noopener noreferrer"
                      className="underline"
                    >
                      Profile on {whisper.fediverse.server}
                    </a>
                  </>
                )}
                {whisper.fediverse?.postUrl && (
                  <>
                    {" · "}
                    <a
                      href={whisper.fediverse.postUrl}
                      rel="nofollow noopener noreferrer"
                      className="underline"
                    >
                      Original post
                    </a>
                  </>
                )}
              </p>
              {whisper.stanzaCount > 1 && (
                <div className="mt-2">
                  <MoveToStanza key={whisper.stanzaIndex} whisper={whisper} onMoved={reload} />
                </div>
              )}
            </div>
            {/* Under the whisper on a phone, beside it from the small breakpoint up. */}
            <div className="flex w-full gap-2 sm:w-auto sm:flex-col sm:self-start">
              {/* A whisper awaiting approval may be approved or hidden; a decided one, changed. */}
              {!whisper.isApproved && (
                <button
                  type="button"
                  className={secondaryButton}
                  onClick={() => moderate(whisper, "approve")}
                >
                  Approve
                </button>
              )}
              {(whisper.isApproved || whisper.isAwaitingApproval) && (
                <button
                  type="button"
                  className={secondaryButton}
                  onClick={() => moderate(whisper, "hide")}
                >
                  Hide
                </button>
              )}
              {!whisper.user.isAdmin && (
                <button
                  type="button"
                  className={secondaryButton}
                  onClick={() => setBlocked(whisper, !whisper.user.isBlocked)}
                  aria-label={`${whisper.user.isBlocked ? "Unblock writer" : "Block writer"} ${writerAddress(whisper)}`}
                >
                  {whisper.user.isBlocked ? "Unblock writer" : "Block writer"}
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
