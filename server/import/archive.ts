import { lstat, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { Inflate } from "fflate";
import {
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ENTRIES,
  IMPORT_MAX_RATIO,
  IMPORT_MAX_UNPACKED_BYTES,
  IMPORT_RATIO_FREE_BYTES,
} from "./limits.ts";
import { ImportFileError } from "./types.ts";

const MB = 1_048_576;

/** One file of a zip or a folder, read only when a parser asks for it. */
export interface ArchiveEntry {
  /** Its path inside the archive, with "/" between folders. */
  name: string;
  /** Its unpacked size as the archive declares it. */
  size: number;
  /** How errors name it: the archive and the entry ("export.zip/posts.csv"). */
  label: string;
  read(): Promise<Uint8Array>;
}

export interface Archive {
  label: string;
  entries: ArchiveEntry[];
}

/** A zip's first bytes: a local file header, or the end record of an empty zip. */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6))
  );
}

/** Operating-system litter that is never part of an export (macOS resource forks, Finder). */
function isLitter(name: string): boolean {
  const base = name.slice(name.lastIndexOf("/") + 1);
  return name.startsWith("__MACOSX/") || base.startsWith("._") || base === ".DS_Store";
}

/**
 * An entry name that stays inside the archive: no absolute path, drive letter, ".." segment or
 * NUL. Backslashes (zips made on Windows) count as separators. Returns the name with "/".
 */
function safeEntryName(raw: string, file: string): string {
  const name = raw.replaceAll("\\", "/");
  const segments = name.split("/");
  if (
    name.startsWith("/") ||
    /^[a-zA-Z]:/.test(name) ||
    name.includes("\u0000") ||
    segments.some((segment) => segment === "..")
  ) {
    throw new ImportFileError(
      `${file} holds an entry whose path leaves the archive (“${raw.replaceAll("\u0000", "")}”); it was not read`,
      file,
    );
  }
  return segments.filter((segment) => segment !== "" && segment !== ".").join("/");
}

const names = new TextDecoder("utf-8");

/**
 * Opens a zip by its central directory (decision 051): every entry's name, size and packing ratio
 * is checked before one byte is unpacked, and an entry is unpacked only when read, in small
 * steps, stopping the moment it passes the size it declared.
 */
export function openZip(bytes: Uint8Array, file: string): Archive {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const damaged = (what: string) =>
    new ImportFileError(`${file} is not a readable zip archive (${what})`, file);
  let end = bytes.length - 22;
  const earliest = Math.max(0, bytes.length - 22 - 65_535);
  while (end >= earliest && view.getUint32(end, true) !== 0x06054b50) end -= 1;
  if (end < earliest) throw damaged("its directory is missing");
  const count = view.getUint16(end + 10, true);
  const directoryOffset = view.getUint32(end + 16, true);
  if (count === 0xffff || directoryOffset === 0xffffffff) {
    throw new ImportFileError(
      `${file} is a ZIP64 archive, which is not read: export files are far smaller`,
      file,
    );
  }
  if (count > IMPORT_MAX_ENTRIES) {
    throw new ImportFileError(
      `${file} holds ${count} files; an import reads at most ${IMPORT_MAX_ENTRIES}`,
      file,
    );
  }
  const entries: ArchiveEntry[] = [];
  let unpacked = 0;
  let read = 0;
  let offset = directoryOffset;
  for (let index = 0; index < count; index += 1) {
    if (offset + 46 > bytes.length || view.getUint32(offset, true) !== 0x02014b50) {
      throw damaged("its directory is cut short");
    }
    const flags = view.getUint16(offset + 8, true);
    const method = view.getUint16(offset + 10, true);
    const packedSize = view.getUint32(offset + 20, true);
    const size = view.getUint32(offset + 24, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const localOffset = view.getUint32(offset + 42, true);
    const rawName = names.decode(bytes.subarray(offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
    const name = safeEntryName(rawName, file);
    if (rawName.endsWith("/") || name === "" || isLitter(name)) continue;
    const label = `${file}/${name}`;
    if (flags & 1) throw new ImportFileError(`${label} is encrypted; it cannot be read`, label);
    if (size > IMPORT_MAX_BYTES) {
      throw new ImportFileError(
        `${label} unpacks to ${Math.ceil(size / MB)} MB; one file may be at most ${IMPORT_MAX_BYTES / MB} MB`,
        label,
      );
    }
    if (size > IMPORT_RATIO_FREE_BYTES && size > packedSize * IMPORT_MAX_RATIO) {
      throw new ImportFileError(
        `${label} unpacks more than ${IMPORT_MAX_RATIO} times its packed size: a zip bomb, not an export`,
        label,
      );
    }
    unpacked += size;
    if (unpacked > IMPORT_MAX_UNPACKED_BYTES) {
      throw new ImportFileError(
        `${file} unpacks to more than ${IMPORT_MAX_UNPACKED_BYTES / MB} MB, the most an import reads`,
        file,
      );
    }
    entries.push({
      name,
      size,
      label,
      read: async () => {
        const data = unpackEntry(bytes, view, { localOffset, packedSize, size, method, label });
        read += data.length;
        if (read > IMPORT_MAX_UNPACKED_BYTES) {
          throw new ImportFileError(
            `${file} unpacks to more than ${IMPORT_MAX_UNPACKED_BYTES / MB} MB, the most an import reads`,
            file,
          );
        }
        return data;
      },
    });
  }
  return { label: file, entries };
}

/** Bytes pushed to the inflater at a time: one step unpacks to at most ~1000 times this. */
const INFLATE_STEP = 16_384;

function unpackEntry(
  bytes: Uint8Array,
  view: DataView,
  entry: { localOffset: number; packedSize: number; size: number; method: number; label: string },
): Uint8Array {
  const { localOffset, packedSize, size, method, label } = entry;
  const damaged = new ImportFileError(`${label} is damaged in the zip archive`, label);
  if (localOffset + 30 > bytes.length || view.getUint32(localOffset, true) !== 0x04034b50) {
    throw damaged;
  }
  const start =
    localOffset +
    30 +
    view.getUint16(localOffset + 26, true) +
    view.getUint16(localOffset + 28, true);
  if (start + packedSize > bytes.length) throw damaged;
  const packed = bytes.subarray(start, start + packedSize);
  if (method === 0) {
    if (packedSize !== size) throw damaged;
    return packed.slice();
  }
  if (method !== 8) {
    throw new ImportFileError(`${label} is packed in a way this import does not read`, label);
  }
  const out = new Uint8Array(size);
  let written = 0;
  const bomb = new ImportFileError(
    `${label} unpacks to more than the size its archive declares: a zip bomb or a damaged file`,
    label,
  );
  const inflater = new Inflate((chunk) => {
    if (written + chunk.length > size) throw bomb;
    out.set(chunk, written);
    written += chunk.length;
  });
  try {
    for (let at = 0; at < packed.length; at += INFLATE_STEP) {
      inflater.push(packed.subarray(at, at + INFLATE_STEP), at + INFLATE_STEP >= packed.length);
    }
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    throw damaged;
  }
  if (written !== size) throw damaged;
  return out;
}

/**
 * A folder on disk (the CLI), held to the same limits as a zip. Hidden files and symbolic links
 * are passed over: a link could point anywhere on the machine.
 */
export async function openDirectory(directory: string): Promise<Archive> {
  const entries: ArchiveEntry[] = [];
  let total = 0;
  const label = path.basename(path.resolve(directory));
  const visit = async (folder: string, prefix: string) => {
    const items = await readdir(folder, { withFileTypes: true });
    items.sort((a, b) => a.name.localeCompare(b.name));
    for (const item of items) {
      if (item.name.startsWith(".") || item.name === "__MACOSX") continue;
      const full = path.join(folder, item.name);
      const name = prefix === "" ? item.name : `${prefix}/${item.name}`;
      if (item.isDirectory()) {
        await visit(full, name);
        continue;
      }
      if (!item.isFile()) continue;
      const { size } = await lstat(full);
      const entryLabel = `${label}/${name}`;
      if (size > IMPORT_MAX_BYTES) {
        throw new ImportFileError(
          `${entryLabel} is ${Math.ceil(size / MB)} MB; one file may be at most ${IMPORT_MAX_BYTES / MB} MB`,
          entryLabel,
        );
      }
      total += size;
      if (total > IMPORT_MAX_UNPACKED_BYTES || entries.length >= IMPORT_MAX_ENTRIES) {
        throw new ImportFileError(
          `${label} holds more than an import reads (${IMPORT_MAX_ENTRIES} files, ${IMPORT_MAX_UNPACKED_BYTES / MB} MB)`,
          label,
        );
      }
      entries.push({ name, size, label: entryLabel, read: async () => readFile(full) });
    }
  };
  try {
    await visit(directory, "");
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    throw new ImportFileError(`${label} cannot be read as a folder`, label);
  }
  return { label, entries };
}
