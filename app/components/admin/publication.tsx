import { dayInZone, instantInZone, timeInZone } from "../../../common/dates.ts";

/** A poem's (or book's) publication as the admin API answers it. */
export interface Publication {
  draft: boolean;
  publishAt: Date;
}

type PublicationState = "draft" | "scheduled" | "published";

export function publicationState(item: Publication, now = Date.now()): PublicationState {
  if (item.draft) return "draft";
  return item.publishAt.getTime() > now ? "scheduled" : "published";
}

const BADGE_CLASSES: Record<PublicationState, string> = {
  draft: "border-stone-400 bg-stone-100 text-stone-800",
  scheduled: "border-amber-400 bg-amber-50 text-amber-950",
  published: "border-emerald-600 bg-emerald-50 text-emerald-900",
};

/** 'Sat 5 Dec, 09:00' on the site's clock: when a scheduled poem comes out. */
export const scheduledTime = (at: Date, timeZone: string) =>
  new Intl.DateTimeFormat("en-GB", {
    timeZone,
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(at);

/**
 * What a save did, in words (docs/product/admin.md, Poems): 'Draft saved', 'Scheduled for Sat 5
 * Dec, 09:00' (the site's clock), 'Published', or 'Updated' for a poem that was already out.
 */
export function savedWords(saved: Publication, wasPublished: boolean, timeZone: string): string {
  const state = publicationState(saved);
  if (state === "draft") return "Draft saved";
  if (state === "scheduled") return `Scheduled for ${scheduledTime(saved.publishAt, timeZone)}`;
  return wasPublished ? "Updated" : "Published";
}

/** 'Nov 20, 2026' on the site's clock: when a published poem came out. */
export const publishedDay = (at: Date, timeZone: string) =>
  new Intl.DateTimeFormat("en-US", { timeZone, dateStyle: "medium" }).format(at);

/** 'Draft', 'Scheduled · Sat 5 Dec, 09:00' (on the site's clock) or 'Published'. */
export function PublicationBadge({ item, timeZone }: { item: Publication; timeZone: string }) {
  const state = publicationState(item);
  const label =
    state === "draft"
      ? "Draft"
      : state === "published"
        ? "Published"
        : `Scheduled · ${scheduledTime(item.publishAt, timeZone)}`;
  return (
    <span
      className={`ml-2 inline-block rounded-full border px-2 py-0.5 align-middle text-xs font-medium ${BADGE_CLASSES[state]}`}
    >
      {label}
    </span>
  );
}

/**
 * The form's 'Publish at' value ('YYYY-MM-DDTHH:MM' on the site's clock, as a datetime-local
 * input holds it) for an item: empty ('Now') unless it is set for the future.
 */
export function publishAtFieldValue(item: Publication | undefined, timeZone: string): string {
  if (!item || item.publishAt.getTime() <= Date.now()) return "";
  const instant = new Date(item.publishAt);
  return `${dayInZone(timeZone, instant)}T${timeInZone(timeZone, instant)}`;
}

/** The API's publishAt for the field's value: the site's wall clock time as an instant. */
export function publishAtFromField(value: string, timeZone: string): string {
  if (!value) return new Date().toISOString();
  const [day = "", time = ""] = value.split("T");
  return instantInZone(day, time.slice(0, 5), timeZone).toISOString();
}
