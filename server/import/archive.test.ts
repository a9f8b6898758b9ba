import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { strToU8, zipSync } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import { openDirectory, openZip } from "./archive.ts";
import { IMPORT_MAX_ENTRIES } from "./limits.ts";
import { parseImport } from "./parse.ts";
import { ImportFileError } from "./types.ts";

// The limits a zip is read with (docs/decisions/051-parsing-foreign-files-safely.md).

/** Offsets of a zip's central directory records, to forge what a hostile archive declares. */
function directoryRecords(zip: Uint8Array): number[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let end = zip.length - 22;
  while (view.getUint32(end, true) !== 0x06054b50) end -= 1;
  const offsets: number[] = [];
  let offset = view.getUint32(end + 16, true);
  for (let index = 0; index < view.getUint16(end + 10, true); index += 1) {
    offsets.push(offset);
    offset +=
      46 +
      view.getUint16(offset + 28, true) +
      view.getUint16(offset + 30, true) +
      view.getUint16(offset + 32, true);
  }
  return offsets;
}

function forge(zip: Uint8Array, change: (view: DataView, record: number) => void): Uint8Array {
  const copy = zip.slice();
  const view = new DataView(copy.buffer);
  for (const record of directoryRecords(copy)) change(view, record);
  return copy;
}

async function refusal(promise: Promise<unknown> | (() => unknown)): Promise<ImportFileError> {
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (error) {
    expect(error).toBeInstanceOf(ImportFileError);
    return error as ImportFileError;
  }
  throw new Error("expected an ImportFileError");
}

const poem = strToU8("A Poem\n\nline one\nline two\n");

describe("zip archives", () => {
  it("lists entries without unpacking them, passing over folders and macOS litter", async () => {
    const archive = openZip(
      zipSync({
        "poems/": {},
        "poems/a.md": poem,
        "__MACOSX/poems/._a.md": poem,
        "poems/.DS_Store": poem,
      }),
      "poems.zip",
    );
    expect(archive.entries.map((entry) => entry.name)).toEqual(["poems/a.md"]);
    expect(archive.entries[0]?.label).toBe("poems.zip/poems/a.md");
    expect(new TextDecoder().decode(await archive.entries[0]?.read())).toContain("line one");
  });

  it("refuses an entry that packs far more than text does (a zip bomb), before unpacking it", async () => {
    const bomb = zipSync({ "posts.csv": new Uint8Array(5_000_000) }, { level: 9 });
    const error = await refusal(() => openZip(bomb, "export.zip"));
    expect(error.message).toBe(
      "export.zip/posts.csv unpacks more than 100 times its packed size: a zip bomb, not an export",
    );
    expect(error.file).toBe("export.zip/posts.csv");
  });

  it("stops unpacking an entry the moment it passes the size its archive declared", async () => {
    const lying = forge(zipSync({ "a.md": new Uint8Array(2_000_000) }), (view, record) =>
      view.setUint32(record + 24, 1_000, true),
    );
    const archive = openZip(lying, "poems.zip");
    const error = await refusal(archive.entries[0]?.read() ?? Promise.resolve());
    expect(error.message).toBe(
      "poems.zip/a.md unpacks to more than the size its archive declares: a zip bomb or a damaged file",
    );
  });

  it("refuses an archive whose entries unpack to more than 200 MB together", async () => {
    const files = Object.fromEntries(Array.from({ length: 6 }, (_, n) => [`${n}.md`, poem]));
    const big = forge(zipSync(files, { level: 0 }), (view, record) => {
      view.setUint32(record + 20, 45_000_000, true);
      view.setUint32(record + 24, 45_000_000, true);
    });
    expect((await refusal(() => openZip(big, "poems.zip"))).message).toBe(
      "poems.zip unpacks to more than 200 MB, the most an import reads",
    );
  });

  it("refuses one entry over the 50 MB a file may be", async () => {
    const big = forge(zipSync({ "huge.md": poem }, { level: 0 }), (view, record) => {
      view.setUint32(record + 20, 60_000_000, true);
      view.setUint32(record + 24, 60_000_000, true);
    });
    expect((await refusal(() => openZip(big, "poems.zip"))).message).toBe(
      "poems.zip/huge.md unpacks to 58 MB; one file may be at most 50 MB",
    );
  });

  it(`refuses more than ${IMPORT_MAX_ENTRIES} entries`, async () => {
    const files = Object.fromEntries(
      Array.from({ length: IMPORT_MAX_ENTRIES + 1 }, (_, n) => [`${n}.txt`, new Uint8Array(0)]),
    );
    expect((await refusal(() => openZip(zipSync(files, { level: 0 }), "many.zip"))).message).toBe(
      `many.zip holds ${IMPORT_MAX_ENTRIES + 1} files; an import reads at most ${IMPORT_MAX_ENTRIES}`,
    );
  });

  it.each([
    "../evil.md",
    "poems/../../evil.md",
    "/etc/cron.d/evil.md",
    "C:/Windows/evil.md",
    "poems\\..\\..\\evil.md",
  ])("refuses an entry whose path leaves the archive: %s", async (name) => {
    const error = await refusal(
      parseImport({ fileName: "poems.zip", bytes: zipSync({ [name]: poem, "ok.md": poem }) }),
    );
    expect(error.message).toBe(
      `poems.zip holds an entry whose path leaves the archive (“${name}”); it was not read`,
    );
    expect(error.file).toBe("poems.zip");
  });

  it("refuses an encrypted entry and a damaged archive", async () => {
    const encrypted = forge(zipSync({ "a.md": poem }), (view, record) =>
      view.setUint16(record + 8, 1, true),
    );
    expect((await refusal(() => openZip(encrypted, "poems.zip"))).message).toBe(
      "poems.zip/a.md is encrypted; it cannot be read",
    );
    const whole = zipSync({ "a.md": poem, "b.md": poem });
    const cut = whole.slice(0, whole.length - 30);
    expect((await refusal(() => openZip(cut, "poems.zip"))).message).toMatch(
      /^poems\.zip is not a readable zip archive/,
    );
  });
});

describe("folders", () => {
  const folders: string[] = [];
  afterAll(() =>
    Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))),
  );

  it("reads files in order, with paths inside the folder, and never follows a symbolic link", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), "import-folder-"));
    folders.push(folder);
    await writeFile(path.join(folder, "b.md"), poem);
    await writeFile(path.join(folder, "a.txt"), poem);
    await writeFile(path.join(folder, ".hidden.md"), poem);
    await symlink("/etc/hostname", path.join(folder, "linked.md"));
    const archive = await openDirectory(folder);
    expect(archive.entries.map((entry) => entry.name)).toEqual(["a.txt", "b.md"]);
  });

  it("refuses a folder that cannot be read", async () => {
    const error = await refusal(openDirectory("/nonexistent/poems"));
    expect(error.message).toBe("poems cannot be read as a folder");
  });
});
