// `wfe diff A.sqlite B.sqlite` (docs/checkpoints.md "Two exported files"): what changed from
// one exported database to a later one, in the same groups as a checkpoint's diff. When the
// later file's change log continues the earlier one's (one run of the log, the same lineage)
// only the log after the earlier file's last change is read; otherwise the watched tables are
// compared whole (each side's rows that differ, found by SQL EXCEPT on the primary key and
// the watched columns, are the only rows made JSON).
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb } from '../store/open';
import { isSqliteFile } from '../platform/database';
import { WATCHED, changesSince, isLogging, lastChangeId, logLineage, tableDifference, type ChangeRow } from '../rows/change-log';
import { lastActivityId } from '../rows/checkpoints';
import { fold } from './fold';
import { group, type Groups } from './diff';

export interface FilesDiff {
  before: string;
  after: string;
  /** 'log': the later file's change log was read; 'tables': the watched tables were compared. */
  source: 'log' | 'tables';
  changes: Groups;
}

export class DiffInputError extends Error {}

/** The diff of two database files; neither file is written (each is read from a private copy, migrated there when older). */
export function diffFiles(beforeFile: string, afterFile: string): FilesDiff {
  for (const f of [beforeFile, afterFile]) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(f);
    } catch {
      throw new DiffInputError(`No readable file at ${f}.`);
    }
    if (!isSqliteFile(bytes)) throw new DiffInputError(`${f} is not a SQLite database file: give files written by wfe export, wfe backup or GET /_emulator/export.`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'wfe-diff-'));
  try {
    const a = join(dir, 'before.sqlite');
    const b = join(dir, 'after.sqlite');
    copyFileSync(beforeFile, a);
    copyFileSync(afterFile, b);
    openDb(a).close();
    const db = openDb(b);
    try {
      db.prepare("ATTACH DATABASE ? AS before").run(a);
      const lineage = logLineage(db, 'main');
      const continues = lineage !== undefined && isLogging(db, 'main') && isLogging(db, 'before') && logLineage(db, 'before') === lineage && lastChangeId(db, 'main') >= lastChangeId(db, 'before');
      let rows: ChangeRow[];
      if (continues) rows = changesSince(db, lastChangeId(db, 'before'));
      else rows = WATCHED.flatMap((w) => tableDifference(db, w, 'before', 'main'));
      const changes = group(fold(rows), { db, after: 'main', before: 'before', activitySeq: lastActivityId(db, 'before') });
      db.prepare('DETACH DATABASE before').run();
      return { before: beforeFile, after: afterFile, source: continues ? 'log' : 'tables', changes };
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
