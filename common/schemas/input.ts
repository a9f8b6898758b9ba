import { z } from "zod/mini";

/**
 * A whole number written in a query or a path: one to `maxDigits` digits and nothing else (no
 * sign, no spaces), read as a number. Anything else fails with `message`; the digit cap keeps
 * every value within what its column or offset can hold.
 */
export const digitsInText = (maxDigits: number, message: string) =>
  z.pipe(
    z.string().check(z.regex(new RegExp(`^\\d{1,${maxDigits}}$`), message)),
    z.transform(Number),
  );

/**
 * An id written in a path or a query: digits, nine at most, so no id overflows PostgreSQL's
 * integer; anything else fails with `message` (the row is not found, the link is invalid).
 */
export const idInText = (message: string) => digitsInText(9, message);
