import { z } from "zod/mini";
import { dateTime } from "./answer.ts";

const text = (name: string, max: number) =>
  z
    .string(`${name} is required`)
    .check(
      z.trim(),
      z.minLength(1, `${name} is required`),
      z.maxLength(max, `${name} is too long`),
    );

const slug = z
  .string("slug is required")
  .check(z.trim(), z.minLength(1, "slug is required"), z.maxLength(200));

/**
 * The digest's content (POST /api/admin/digest/preview; docs/product/digest.md): the featured
 * ember, the most-echoed stanzas with their counts, and new poems. The admin page fills it from
 * the site.
 */
export const digestContentInput = z.object({
  featuredEmber: z.object({
    text: text("Ember text", 5_000),
    date: z.union([
      z.iso.datetime({ offset: true, message: "date must be an ISO date" }),
      z.iso.date(),
    ]),
  }),
  topEchoedStanzas: z
    .array(
      z.object({
        poem: z.object({ title: text("Poem title", 300), slug }),
        stanza: text("Stanza", 5_000),
        stanzaIndex: z.number().check(z.int(), z.gte(0)),
        echoCount: z.number().check(z.int(), z.gte(0)),
      }),
    )
    .check(z.maxLength(10)),
  newPoems: z
    .array(
      z.object({
        title: text("Poem title", 300),
        slug,
        stanzas: z.array(z.string().check(z.maxLength(5_000))).check(z.maxLength(200)),
      }),
    )
    .check(z.maxLength(20)),
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
export const digestRecipients = z.object({ recipients: z.int() });

/** 'skipped': a scheduled week that sent nothing, with its reason (skipReason). */
export const MAIL_RUN_STATUSES = ["sending", "paused", "sent", "skipped"] as const;

/** A sending run with its deliveries tallied (the send, resume and runs calls answer these). */
export const digestRun = z.object({
  id: z.int(),
  subject: z.string(),
  status: z.enum(MAIL_RUN_STATUSES),
  pausedReason: z.nullable(z.string()),
  /** The weekly schedule's instant this run is for; null for a manual send. */
  scheduledFor: z.nullable(dateTime),
  /** Why a scheduled week sent nothing (status 'skipped'). */
  skipReason: z.nullable(z.string()),
  recipientCount: z.int(),
  sentCount: z.int(),
  failedCount: z.int(),
  skippedCount: z.int(),
  pendingCount: z.int(),
  createdAt: dateTime,
  completedAt: z.nullable(dateTime),
});
export type DigestRun = z.output<typeof digestRun>;

const WEEKDAY_MESSAGE = "weekday must be a whole number from 0 (Sunday) to 6 (Saturday)";

/** PUT /api/admin/digest/schedule: automatic weekly sending, on the site's clock. */
export const digestScheduleInput = z.object({
  enabled: z.boolean("enabled must be true or false"),
  weekday: z
    .number(WEEKDAY_MESSAGE)
    .check(z.int(WEEKDAY_MESSAGE), z.gte(0, WEEKDAY_MESSAGE), z.lte(6, WEEKDAY_MESSAGE)),
  time: z
    .string("time must be HH:MM")
    .check(z.regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, "time must be HH:MM (00:00 to 23:59)")),
});
export type DigestScheduleInput = z.infer<typeof digestScheduleInput>;

/** GET and PUT /api/admin/digest/schedule (docs/product/digest.md, The schedule). */
export const digestScheduleAnswer = z.object({
  enabled: z.boolean(),
  weekday: z.int(),
  time: z.string(),
  timezone: z.string(),
  /** The next scheduled send while enabled. */
  nextSendAt: z.nullable(dateTime),
});
export type DigestScheduleView = z.output<typeof digestScheduleAnswer>;
