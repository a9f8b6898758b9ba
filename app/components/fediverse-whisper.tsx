import type { FediverseOrigin } from "../../common/schemas/interactions.ts";

/** Links to other servers: followed by readers, not vouched for by the site. */
const REMOTE_REL = "nofollow ugc noopener noreferrer";

/** The first character of a name as the reader sees it, not half of a surrogate pair. */
function initialOf(name: string): string {
  const handle = name.replace(/^@/, "");
  return (Array.from(handle)[0] ?? "?").toUpperCase();
}

/**
 * A letter where a fediverse author's avatar would be: their picture stays on their server, and
 * readers' browsers never load it from there (docs/decisions/046-fediverse-voices.md).
 */
export function FediverseAvatar({ origin }: { origin: Pick<FediverseOrigin, "name" | "handle"> }) {
  return (
    <span
      aria-hidden="true"
      className="flex size-9 shrink-0 items-center justify-center rounded-full bg-stone-700 font-serif text-white"
    >
      {initialOf(origin.name ?? origin.handle)}
    </span>
  );
}

/**
 * Who wrote a whisper that came as a reply from the fediverse, and where: their name, handle and
 * server, with links to their profile and to the original post (which holds the whole reply when
 * the whisper shows it cut). docs/product/interactions.md, Whispers from the fediverse.
 */
export function FediverseWhisperAuthor({ origin }: { origin: FediverseOrigin }) {
  return (
    <div className="flex items-start gap-3">
      <FediverseAvatar origin={origin} />
      <div className="min-w-0">
        <p className="text-sm font-medium text-stone-900">
          {origin.profileUrl ? (
            <a
              href={origin.profileUrl}
              rel={REMOTE_REL}
              className="underline-offset-2 hover:underline"
            >
              <bdi>{origin.name ?? origin.handle}</bdi>
            </a>
          ) : (
            <bdi>{origin.name ?? origin.handle}</bdi>
          )}
        </p>
        {/*
          The handle names a server ("@ada@elsewhere.example"); where it is not the one the
          account lives on (a handle on its own domain), that server is named beside it.
        */}
        <p className="break-all text-xs text-stone-600">
          <bdi>{origin.handle}</bdi>
          {!origin.handle.toLowerCase().endsWith(`@${origin.server}`) && ` · ${origin.server}`}
        </p>
      </div>
    </div>
  );
}

/** The link under a fediverse whisper to the post it came from. */
export function FediverseOriginalLink({ origin }: { origin: FediverseOrigin }) {
  if (!origin.postUrl) return null;
  return (
    <a
      href={origin.postUrl}
      rel={REMOTE_REL}
      className="mt-1 inline-block text-sm text-ember-800 underline underline-offset-2"
    >
      {origin.isCut
        ? `Read the whole reply on ${origin.server}`
        : `View the reply on ${origin.server}`}
    </a>
  );
}
