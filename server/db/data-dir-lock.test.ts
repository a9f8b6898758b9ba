import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  acquireDataDirLock,
  DataDirLockedError,
  lockFilePath,
  readLockHolder,
} from "./data-dir-lock.ts";

const dirs: string[] = [];
function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ev-lock-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("data directory lock", () => {
  it("refuses a second opener while the first holds it, and frees on release", () => {
    const dir = tempDir();
    const release = acquireDataDirLock(dir);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    expect(readLockHolder(dir)).toBe(process.pid);
    release();
    expect(fs.existsSync(lockFilePath(dir))).toBe(false);
    acquireDataDirLock(dir)();
  });

  it("takes over a lock left by a process that died", () => {
    const dir = tempDir();
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
    fs.writeFileSync(lockFilePath(dir), dead.stdout.toString());
    expect(readLockHolder(dir)).toBeUndefined();
    const release = acquireDataDirLock(dir);
    expect(fs.readFileSync(lockFilePath(dir), "utf8")).toBe(String(process.pid));
    release();
  });
});
