// Temporary files (docs/reliability.md 11): each server keeps its own under one directory,
// <tmpdir>/wfe-tmp/<pid>-<random>, removed when it closes or its process exits. A process
// killed outright (SIGKILL, power loss) cannot clean up, so every start sweeps the
// directories of processes that no longer run: a killed import's file (up to
// --max-import-bytes) lasts until the next start at most.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const tempRoot = (): string => join(tmpdir(), 'wfe-tmp');

/** Whether a process of this id runs (EPERM: it does, as another user). */
function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Before this layout, imports wrote <tmpdir>/wfe-import-*: removed when an hour old (no import runs that long). */
const LEGACY_PREFIX = 'wfe-import-';
const LEGACY_AGE_MS = 60 * 60 * 1000;

/** Removes what dead processes left; returns the directories removed. */
export function sweepTempFiles(): string[] {
  const removed: string[] = [];
  const root = tempRoot();
  let names: string[] = [];
  try {
    names = readdirSync(root);
  } catch {
    /* nothing made yet */
  }
  for (const name of names) {
    if (alive(Number(name.split('-')[0]))) continue;
    rmSync(join(root, name), { recursive: true, force: true });
    removed.push(join(root, name));
  }
  try {
    for (const name of readdirSync(tmpdir())) {
      if (!name.startsWith(LEGACY_PREFIX)) continue;
      const dir = join(tmpdir(), name);
      try {
        if (Date.now() - statSync(dir).mtimeMs < LEGACY_AGE_MS) continue;
      } catch {
        continue;
      }
      rmSync(dir, { recursive: true, force: true });
      removed.push(dir);
    }
  } catch {
    /* tmpdir unreadable: nothing to sweep */
  }
  return removed;
}

/** Directories still to remove when the process exits (closed servers have removed theirs). */
const open = new Set<string>();
let hooked = false;
function removeAtExit(dir: string): void {
  open.add(dir);
  if (hooked) return;
  hooked = true;
  process.once('exit', () => {
    for (const d of open) rmSync(d, { recursive: true, force: true });
  });
}

let swept = false;

/** One server's temporary directory, made on first use. */
export class TempFiles {
  private dir: string | undefined;

  constructor() {
    if (swept) return;
    swept = true; // once per process: what dead processes left cannot grow while we run
    sweepTempFiles();
  }

  /** A new empty directory for one job (an import), inside this server's directory. */
  make(prefix: string): string {
    if (this.dir === undefined) {
      mkdirSync(tempRoot(), { recursive: true });
      this.dir = mkdtempSync(join(tempRoot(), `${process.pid}-`));
      removeAtExit(this.dir);
    }
    return mkdtempSync(join(this.dir, prefix));
  }

  /** Removes this server's directory and everything in it. */
  close(): void {
    if (this.dir === undefined) return;
    rmSync(this.dir, { recursive: true, force: true });
    open.delete(this.dir);
    this.dir = undefined;
  }
}

let processTemp: TempFiles | undefined;
/** The process's own, for work outside a server (`wfe import`). */
export const processTempFiles = (): TempFiles => (processTemp ??= new TempFiles());
