import { parse } from "csv-parse/sync";
import { parseEmail } from "../../common/email.ts";
import { oneLine, parseDate } from "./text.ts";
import type { ImportedSubscriber } from "./types.ts";
import { ImportFileError } from "./types.ts";

export interface CsvRow {
  /** The row's fields by header name, lowercased and trimmed. */
  fields: Record<string, string>;
  /** The line the row starts on, for errors and the preview. */
  line: number;
}

const REASONS: Record<string, (error: { lines?: number }) => string> = {
  CSV_RECORD_INCONSISTENT_COLUMNS: () => "the row has a different number of fields from the header",
  CSV_RECORD_INCONSISTENT_FIELDS_LENGTH: () =>
    "the row has a different number of fields from the header",
  CSV_QUOTE_NOT_CLOSED: () => "a quoted field is never closed",
  INVALID_OPENING_QUOTE: () => "a quote stands in the middle of a field",
  CSV_INVALID_CLOSING_QUOTE: () => "a quote is followed by more text in the same field",
  CSV_MAX_RECORD_SIZE: () => "a row is too long",
};

/**
 * A CSV with a header row, read with csv-parse (decision 051). A malformed row refuses the file,
 * naming it and the line: half a subscriber list is worse than none.
 */
export function readCsv(text: string, file: string, required: string[]): CsvRow[] {
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parse(text, {
      columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()),
      bom: true,
      info: true,
      skip_empty_lines: true,
      max_record_size: 1_048_576,
    });
  } catch (error) {
    const { code, lines } = error as { code?: string; lines?: number };
    const line = typeof lines === "number" ? lines : null;
    const reason = (code && REASONS[code]?.(error as object)) ?? "it is not a valid CSV file";
    throw new ImportFileError(`${file}${line ? `, line ${line}` : ""}: ${reason}`, file, line);
  }
  const first = records[0];
  if (first) {
    const missing = required.filter((name) => !(name in first.record));
    if (missing.length > 0) {
      throw new ImportFileError(`${file}, line 1: it has no ${missing.join(", ")} column`, file, 1);
    }
  }
  // info.lines is the line a record ends on; a record's own newlines are counted back.
  return records.map(({ record, info }) => ({
    fields: record,
    line: info.lines - (Object.values(record).join("").match(/\n/g)?.length ?? 0),
  }));
}

/** The first line of a CSV's text: its header, lowercased, for telling exports apart. */
export function csvHeader(text: string): string[] {
  const first = text.replace(/^\ufeff/, "").split(/\r?\n/, 1)[0] ?? "";
  return first.split(",").map((name) => name.trim().replace(/^"|"$/g, "").toLowerCase());
}

/** "true", "1", "yes", "t" (any case) are true; anything else, empty included, is false. */
export function isTrue(value: string | undefined): boolean {
  return /^(true|1|yes|t|y)$/i.test(value?.trim() ?? "");
}

/**
 * An address whose only fault is letters beyond ASCII (ömil@example.com, an internationalised
 * domain): real, but deliverable only where every mail server on the way speaks SMTPUTF8.
 */
const INTERNATIONAL_ADDRESS =
  /^(?=[^@]*[^\p{ASCII}]|.*@.*[^\p{ASCII}])[^\s@<>"]{1,64}@[^\s@<>"]+\.[^\s@<>".]{2,}$/u;

/**
 * A subscriber from a list row. Only an address the site accepts, receiving email in the source,
 * can be imported; the others carry why not. A second row for the same address is merged into
 * the first (receiving if either was).
 */
export function addSubscriber(
  into: Map<string, ImportedSubscriber>,
  row: {
    email: string;
    name: string | null;
    receivingEmail: boolean;
    why: string | null;
    createdAt: string | undefined;
  },
): void {
  const email = parseEmail(row.email);
  const written = oneLine(row.email);
  const subscriber: ImportedSubscriber = {
    email: email ?? written.toLowerCase(),
    name: row.name ? oneLine(row.name) || null : null,
    receivingEmail: row.receivingEmail && email !== undefined,
    subscribedAt: parseDate(row.createdAt, true),
    skipReason:
      email !== undefined
        ? row.receivingEmail
          ? null
          : row.why
        : INTERNATIONAL_ADDRESS.test(written)
          ? // Named one by one: the poet may want to write to each of them by hand.
            `${written}: its letters beyond ASCII need a mail server that accepts international addresses (SMTPUTF8), which this site's mail transport is not set up to use`
          : "Not a valid email address",
  };
  const existing = into.get(subscriber.email);
  if (existing === undefined || (!existing.receivingEmail && subscriber.receivingEmail)) {
    into.set(subscriber.email, subscriber);
  }
}
