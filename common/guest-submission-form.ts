/**
 * What the contribute form and its schema (common/schemas/guest-submission.ts) both say, kept
 * apart from the schema so that the form's page does not load zod to show them
 * (docs/decisions/030-echo-counts-without-the-contract.md).
 */
export const MISSING_FIELDS = {
  title: "Missing fields",
  description: "Please fill in all required fields and confirm consent.",
};
export const BIO_TOO_LONG = {
  title: "Bio too long",
  description: "Please keep your bio under 160 characters.",
};

/**
 * The hidden decoy field's name: people never see it, form-filling bots do
 * (docs/product/reading.md, Contribute).
 */
export const DECOY_FIELD = "fax";
