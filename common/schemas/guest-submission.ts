import { z } from "zod/mini";
import { CONTRIBUTION_BIO_MAX_LENGTH } from "../constants.ts";
import { EMAIL_MESSAGE, EMAIL_PATTERN } from "../email.ts";
import { BIO_TOO_LONG, DECOY_FIELD, MISSING_FIELDS } from "../guest-submission-form.ts";
import { dateTime } from "./answer.ts";

const required = (max: number) =>
  z
    .string(MISSING_FIELDS.description)
    .check(
      z.trim(),
      z.minLength(1, MISSING_FIELDS.description),
      z.maxLength(max, `Please keep this under ${max} characters.`),
    );
/** A blank answer is no answer: it becomes absent before `schema` reads it. */
const optional = (schema: z.ZodMiniType<string>) =>
  z.pipe(
    z.transform((value) => (typeof value === "string" && value.trim() === "" ? undefined : value)),
    z.optional(schema),
  );

/** POST /api/guest-submission (docs/product/reading.md): one schema for the form and the server. */
export const guestSubmissionInput = z.object({
  name: required(100),
  email: z
    .string(MISSING_FIELDS.description)
    .check(
      z.trim(),
      z.minLength(1, MISSING_FIELDS.description),
      z.maxLength(255, EMAIL_MESSAGE),
      z.regex(EMAIL_PATTERN, EMAIL_MESSAGE),
    ),
  handle: optional(
    z.string().check(z.trim(), z.maxLength(50, "Please keep your handle under 50 characters.")),
  ),
  socialUrl: optional(
    z.pipe(
      z.string().check(z.trim(), z.maxLength(500, "Please keep the link under 500 characters.")),
      z.url({ protocol: /^https?$/, error: "Please enter a valid URL" }),
    ),
  ),
  bio: optional(
    z.string().check(z.trim(), z.maxLength(CONTRIBUTION_BIO_MAX_LENGTH, BIO_TOO_LONG.description)),
  ),
  poemTitle: required(200),
  poemText: required(20_000),
  [DECOY_FIELD]: z.optional(z.string().check(z.maxLength(1000))),
});

export type GuestSubmissionInput = z.infer<typeof guestSubmissionInput>;

/** A submission as the admin's review lists it (GET /api/admin/submissions). */
export const guestSubmission = z.object({
  id: z.int(),
  name: z.string(),
  email: z.string(),
  handle: z.nullable(z.string()),
  socialUrl: z.nullable(z.string()),
  bio: z.nullable(z.string()),
  poemTitle: z.string(),
  poemText: z.string(),
  reviewedAt: z.nullable(dateTime),
  createdAt: dateTime,
});
export type GuestSubmission = z.output<typeof guestSubmission>;
