import { z } from "zod/mini";
import { dateTime } from "./answer.ts";

/**
 * Bringing poems and readers from another platform (docs/product/import.md,
 * docs/decisions/052-the-import-job.md): the preview of an uploaded export, the poet's
 * confirmation, the job's progress and the old links it keeps.
 */

export const IMPORT_SOURCE_NAMES = ["substack", "ghost", "wordpress", "files"] as const;
export type ImportSourceName = (typeof IMPORT_SOURCE_NAMES)[number];

/** The largest export the import page and the CLI take: a Substack zip with years of posts. */
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;
/** How many poems of one preview the poet may leave out (the confirmation's body stays small). */
export const IMPORT_EXCLUDE_MAX = 2_000;

const SOURCE_MESSAGE = "Choose Substack, Ghost, WordPress or plain files";
export const importSource = z.enum(IMPORT_SOURCE_NAMES, SOURCE_MESSAGE);

/** The preview's query: the file's name (for messages) and, optionally, its platform. */
export const importPreviewQuery = z.object({
  fileName: z
    .string("Name the file")
    .check(
      z.trim(),
      z.minLength(1, "Name the file"),
      z.maxLength(255, "The file name is too long"),
    ),
  source: z.optional(importSource),
});

const poemState = z.enum(["published", "draft", "scheduled"]);

export const importPreviewPoem = z.object({
  /** The site it came from where its id is only unique there (a WordPress site's address), else "". */
  site: z.string(),
  sourceId: z.string(),
  title: z.string(),
  /** The slug it will have here: its own, or with a suffix when that slug is taken. */
  slug: z.string(),
  /** The slug it asked for, when a clash changed it. */
  clashedWith: z.nullable(z.string()),
  stanzas: z.array(z.string()),
  tags: z.array(z.string()),
  state: poemState,
  publishAt: z.nullable(dateTime),
  coverUrl: z.nullable(z.string()),
  /** Its old addresses that will answer a 301 to its page here. */
  oldPaths: z.array(z.string()),
  /** Its old addresses that will not, each with why (this site's own page; another poem keeps it). */
  notRedirected: z.array(z.object({ path: z.string(), reason: z.string() })),
  audioUrl: z.nullable(z.string()),
  notes: z.array(z.string()),
  /** Brought in by an earlier import of the same site's export: it will not be added again. */
  alreadyImported: z.boolean(),
  /** Already imported, and different in this export (edited since): the poet may update it. */
  changed: z.boolean(),
  /** Whether the preview starts with it chosen (a podcast episode starts left out). */
  chosen: z.boolean(),
});
export type ImportPreviewPoem = z.output<typeof importPreviewPoem>;

export const importSubscriberSummary = z.object({
  found: z.number(),
  /** Receiving email in the source, so importable with the poet's confirmation of consent. */
  receiving: z.number(),
  /** Of those, the addresses not subscribed here yet. */
  new: z.number(),
  skipped: z.array(z.object({ reason: z.string(), count: z.number() })),
});

export const importJob = z.object({
  id: z.number(),
  source: importSource,
  fileName: z.string(),
  state: z.enum(["preview", "importing", "done", "failed"]),
  poemsSelected: z.number(),
  poemsDone: z.number(),
  poemsImported: z.number(),
  poemsAlreadyImported: z.number(),
  poemsUpdated: z.number(),
  subscribersToImport: z.number(),
  subscribersDone: z.number(),
  subscribersImported: z.number(),
  subscribersExisting: z.number(),
  subscribersSkipped: z.number(),
  fetchCovers: z.boolean(),
  subscribersConsented: z.boolean(),
  notes: z.array(z.string()),
  error: z.nullable(z.string()),
  createdAt: dateTime,
  finishedAt: z.nullable(dateTime),
});
export type ImportJob = z.output<typeof importJob>;

export const importPreview = z.object({
  job: importJob,
  poems: z.array(importPreviewPoem),
  subscribers: importSubscriberSummary,
  skipped: z.array(z.object({ sourceId: z.string(), title: z.string(), reason: z.string() })),
});
export type ImportPreview = z.output<typeof importPreview>;

export const importConfirmInput = z.object({
  /** Source ids of the poems the poet deselected. */
  exclude: z.array(z.string().check(z.maxLength(500))).check(z.maxLength(IMPORT_EXCLUDE_MAX)),
  /** Source ids of already imported poems that changed, which the poet chose to update. */
  update: z.optional(
    z.array(z.string().check(z.maxLength(500))).check(z.maxLength(IMPORT_EXCLUDE_MAX)),
  ),
  /** Fetch covers into our storage (true) or keep them as references to the old site. */
  fetchCovers: z.boolean("Say whether to fetch the covers"),
  /** The poet confirms the subscribers consented on the old platform. */
  subscribersConsented: z.boolean("Say whether the subscribers consented"),
});
export type ImportConfirmInput = z.output<typeof importConfirmInput>;

export const importRedirect = z.object({
  id: z.number(),
  path: z.string(),
  poemSlug: z.string(),
  poemTitle: z.string(),
});
export type ImportRedirect = z.output<typeof importRedirect>;
