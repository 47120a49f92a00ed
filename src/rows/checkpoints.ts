// Checkpoints as stored (schema.sql `checkpoints`, docs/checkpoints.md): where the change
// log stood when each was made. Kept in the database, so a checkpoint made on a file
// survives a restart and is seen by every process sharing the file.
import type { Db } from '../store/open';
import { insertOf, selectList, type RowOf } from '../store/columns';
import { checkpointsTable } from '../store/tables/platform';
import { clearLog, stopLogging } from './change-log';

/** A checkpoint row as stored (store/tables/platform.ts). */
export type CheckpointRow = RowOf<typeof checkpointsTable.columns>;

const CHECKPOINT = selectList(checkpointsTable);

export const checkpointById = (db: Db, id: string): CheckpointRow | undefined =>
  db.prepare<[string], CheckpointRow>(`SELECT ${CHECKPOINT} FROM checkpoints WHERE id = ?`).get(id);

export const allCheckpoints = (db: Db): CheckpointRow[] =>
  db.prepare<[], CheckpointRow>(`SELECT ${CHECKPOINT} FROM checkpoints ORDER BY created_at, id`).all();

/** A checkpoint whose data was not replaced (replaced_by NULL). */
const CHECKPOINT_INSERT = insertOf(checkpointsTable);

export function insertCheckpoint(db: Db, c: Omit<CheckpointRow, 'replaced_by'>): void {
  db.prepare(CHECKPOINT_INSERT.sql).run(CHECKPOINT_INSERT.values(c));
}

export const deleteCheckpoint = (db: Db, id: string): boolean => db.prepare('DELETE FROM checkpoints WHERE id = ?').run(id).changes > 0;

export const checkpointCount = (db: Db): number => (db.prepare('SELECT count(*) AS n FROM checkpoints').get() as { n: number }).n;

/** The activity feed's last id (0 when empty). */
export const lastActivityId = (db: Db, schema = 'main'): number => (db.prepare(`SELECT coalesce(max(id), 0) AS n FROM ${schema}.activity`).get() as { n: number }).n;

/**
 * After a replace, the checkpoints made before it come back marked with what replaced the
 * data; those the replacement brought (an imported file's) are marked too.
 */
export function restoreReplaced(db: Db, before: CheckpointRow[], reason: 'reset' | 'import'): void {
  const put = db.prepare('INSERT OR REPLACE INTO checkpoints (id, change_seq, activity_seq, created_at, replaced_by) VALUES (?, ?, ?, ?, ?)');
  // One replaced earlier keeps the reason it was first refused for.
  for (const c of before) put.run(c.id, c.change_seq, c.activity_seq, c.created_at, c.replaced_by ?? reason);
  db.prepare('UPDATE checkpoints SET replaced_by = ? WHERE replaced_by IS NULL').run(reason);
}

/** Who did what to a task after `afterId`, newest first (the activity feed; the index on task_id). */
export const taskActivitySince = (db: Db, taskId: number, afterId: number, schema = 'main'): { member_id: number | null; action: string; data: string | null; created_at: number }[] =>
  db.prepare(`SELECT member_id, action, data, created_at FROM ${schema}.activity WHERE task_id = ? AND id > ? ORDER BY id DESC`).all(taskId, afterId) as never;

/** Names of members by id, in `schema`. */
export function memberNames(db: Db, ids: number[], schema = 'main'): Map<number, { name: string; email?: string }> {
  const out = new Map<number, { name: string; email?: string }>();
  const st = db.prepare(`SELECT id, first_name, last_name, email, is_removed FROM ${schema}.members WHERE id = ?`);
  for (const id of new Set(ids)) {
    const m = st.get(id) as { id: number; first_name: string | null; last_name: string | null; email: string | null; is_removed: number } | undefined;
    if (!m) continue;
    const name = [m.first_name, m.last_name].filter(Boolean).join(' ') || m.email || `Member ${m.id}`;
    out.set(id, m.is_removed || !m.email ? { name } : { name, email: m.email });
  }
  return out;
}

/** Names of groups by id, in `schema`. */
export function groupNames(db: Db, ids: number[], schema = 'main'): Map<number, string> {
  const st = db.prepare(`SELECT name FROM ${schema}.groups WHERE id = ?`);
  const out = new Map<number, string>();
  for (const id of new Set(ids)) {
    const g = st.get(id) as { name: string } | undefined;
    if (g) out.set(id, g.name);
  }
  return out;
}

/**
 * A whole-database replace (a reset, an import: src/platform/database.ts), inside its
 * transaction: the log stops before the rows go (so it never writes the whole database), is
 * emptied after, and the checkpoints made before come back marked with what replaced the data,
 * so their diff is refused (409) instead of comparing with data that is not theirs.
 */
export function replacingData(db: Db, reason: 'reset' | 'import', copy: () => void): void {
  const kept = allCheckpoints(db);
  stopLogging(db);
  copy();
  clearLog(db);
  restoreReplaced(db, kept, reason);
}
