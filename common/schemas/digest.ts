import { z } from "zod";
import { dateTime } from "./answer.ts";

const text = (name: string, max: number) =>
  z
    .string(`${name} is required`)
    .trim()
    .min(1, `${name} is required`)
    .max(max, `${name} is too long`);

const slug = z.string("slug is required").trim().min(1, "slug is required").max(200);

/**
 * The digest's content (SPEC.md §7, POST /api/admin/digest/preview): the featured ember, the
 * most-echoed stanzas with their counts, and new poems. The admin page fills it from the site.
 */
export const digestContentInput = z.object({
  featuredEmber: z.object({
    text: text("Ember text", 5_000),
    date: z.iso.datetime({ offset: true, message: "date must be an ISO date" }).or(z.iso.date()),
  }),
  topEchoedStanzas: z
    .array(
      z.object({
        poem: z.object({ title: text("Poem title", 300), slug }),
        stanza: text("Stanza", 5_000),
        stanzaIndex: z.number().int().min(0),
        echoCount: z.number().int().min(0),
      }),
    )
    .max(10),
  newPoems: z
    .array(
      z.object({
        title: text("Poem title", 300),
        slug,
        stanzas: z.array(z.string().max(5_000)).max(200),
      }),
    )
    .max(20),
});
export type DigestContent = z.infer<typeof digestContentInput>;

export const DIGEST_SUBJECT_MAX_LENGTH = 200;

/** POST /api/admin/digest/send. */
export const digestSendInput = z.object({
  subject: text("Subject", DIGEST_SUBJECT_MAX_LENGTH),
});

/** POST /api/admin/digest/preview. */
export const digestPreview = z.object({ html: z.string() });

/** GET /api/admin/digest/recipients: how many addresses a digest sent now would reach. */
export const digestRecipients = z.object({ recipients: z.number().int() });

/** 'skipped': a scheduled week that sent nothing, with its reason (skipReason). */
export const MAIL_RUN_STATUSES = ["sending", "paused", "sent", "skipped"] as const;

/** A sending run with its deliveries tallied (the send, resume and runs calls answer these). */
export const digestRun = z.object({
  id: z.number().int(),
  subject: z.string(),
  status: z.enum(MAIL_RUN_STATUSES),
  pausedReason: z.string().nullable(),
  /** The weekly schedule's instant this run is for; null for a manual send. */
  scheduledFor: dateTime.nullable(),
  /** Why a scheduled week sent nothing (status 'skipped'). */
  skipReason: z.string().nullable(),
  recipientCount: z.number().int(),
  sentCount: z.number().int(),
  failedCount: z.number().int(),
  skippedCount: z.number().int(),
  pendingCount: z.number().int(),
  createdAt: dateTime,
  completedAt: dateTime.nullable(),
});
export type DigestRun = z.output<typeof digestRun>;

/** PUT /api/admin/digest/schedule: automatic weekly sending, on the site's clock. */
export const digestScheduleInput = z.object({
  enabled: z.boolean("enabled must be true or false"),
  weekday: z
    .number("weekday must be a whole number from 0 (Sunday) to 6 (Saturday)")
    .int("weekday must be a whole number from 0 (Sunday) to 6 (Saturday)")
    .min(0, "weekday must be a whole number from 0 (Sunday) to 6 (Saturday)")
    .max(6, "weekday must be a whole number from 0 (Sunday) to 6 (Saturday)"),
  time: z
    .string("time must be HH:MM")
    .regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, "time must be HH:MM (00:00 to 23:59)"),
});
export type DigestScheduleInput = z.infer<typeof digestScheduleInput>;

/** GET and PUT /api/admin/digest/schedule (DESIGN.md, Digest schedule). */
export const digestScheduleAnswer = z.object({
  enabled: z.boolean(),
  weekday: z.number().int(),
  time: z.string(),
  timezone: z.string(),
  /** The next scheduled send while enabled. */
  nextSendAt: dateTime.nullable(),
});
export type DigestScheduleView = z.output<typeof digestScheduleAnswer>;
