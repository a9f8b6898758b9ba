import { z } from "zod";
import { CONTRIBUTION_BIO_MAX_LENGTH } from "../constants.ts";
import { EMAIL_MESSAGE, EMAIL_PATTERN } from "../email.ts";
import { dateTime } from "./answer.ts";

export const MISSING_FIELDS = {
  title: "Missing fields",
  description: "Please fill in all required fields and confirm consent.",
};
export const BIO_TOO_LONG = {
  title: "Bio too long",
  description: "Please keep your bio under 160 characters.",
};

/** The hidden decoy field's name: people never see it, form-filling bots do (SPEC.md §2). */
export const DECOY_FIELD = "fax";

const required = (max: number) =>
  z
    .string(MISSING_FIELDS.description)
    .trim()
    .min(1, MISSING_FIELDS.description)
    .max(max, `Please keep this under ${max} characters.`);
const optional = (schema: z.ZodType<string>) =>
  z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    schema.optional(),
  );

/** POST /api/guest-submission (SPEC.md §3, §5): one schema for the form and the server. */
export const guestSubmissionInput = z.object({
  name: required(100),
  email: z
    .string(MISSING_FIELDS.description)
    .trim()
    .min(1, MISSING_FIELDS.description)
    .max(255, EMAIL_MESSAGE)
    .regex(EMAIL_PATTERN, EMAIL_MESSAGE),
  handle: optional(z.string().trim().max(50, "Please keep your handle under 50 characters.")),
  socialUrl: optional(
    z
      .string()
      .trim()
      .max(500, "Please keep the link under 500 characters.")
      .pipe(z.url({ protocol: /^https?$/, error: "Please enter a valid URL" })),
  ),
  bio: optional(z.string().trim().max(CONTRIBUTION_BIO_MAX_LENGTH, BIO_TOO_LONG.description)),
  poemTitle: required(200),
  poemText: required(20_000),
  [DECOY_FIELD]: z.string().max(1000).optional(),
});

export type GuestSubmissionInput = z.infer<typeof guestSubmissionInput>;

/** A submission as the admin's review lists it (GET /api/admin/submissions). */
export const guestSubmission = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  handle: z.string().nullable(),
  socialUrl: z.string().nullable(),
  bio: z.string().nullable(),
  poemTitle: z.string(),
  poemText: z.string(),
  reviewedAt: dateTime.nullable(),
  createdAt: dateTime,
});
export type GuestSubmission = z.output<typeof guestSubmission>;
