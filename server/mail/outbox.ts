import fs from "node:fs/promises";
import path from "node:path";

/** The addresses a message's To, Cc and Bcc headers name, lowercased. */
function recipientsOf(eml: string): string[] {
  const end = eml.search(/\r?\n\r?\n/);
  const headers = (end === -1 ? eml : eml.slice(0, end)).replace(/\r?\n[ \t]+/g, " ");
  return headers
    .split(/\r?\n/)
    .filter((line) => /^(to|cc|bcc):/i.test(line))
    .flatMap((line) => line.match(/[^\s<>,;:"]+@[^\s<>,;"]+/g) ?? [])
    .map((address) => address.toLowerCase());
}

/**
 * Removes the development outbox's messages addressed to `address` (DATA_DIR/outbox, where mail
 * goes when SMTP_URL is unset): when a reader leaves, nothing the site keeps names them
 * (docs/product/accounts.md). Answers how many were removed.
 */
export async function removeOutboxMailTo(outbox: string, address: string): Promise<number> {
  const wanted = address.trim().toLowerCase();
  const names = await fs.readdir(outbox).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [] as string[];
    throw error;
  });
  let removed = 0;
  for (const name of names.filter((file) => file.endsWith(".eml"))) {
    const file = path.join(outbox, name);
    const text = await fs.readFile(file, "utf8").catch(() => "");
    if (recipientsOf(text).includes(wanted)) {
      await fs.rm(file, { force: true });
      removed += 1;
    }
  }
  return removed;
}
