// The activity feed as stored (schema.sql `activity`). No remembered value reads it, so its
// writes are quiet (store/versioned.ts): recording who did what does not make the checklist's
// evaluated state, computed by the same write, stale.
import type { Db } from '../store/open';
import { quietChanges } from '../store/change-signal';

export interface ActivityInsert {
  workspace_id: number;
  checklist_id: number | null;
  task_id: number | null;
  member_id: number;
  action: string;
  text: string;
  /** JSON, or null. */
  data: string | null;
  created_at: number;
}

export function insertActivity(db: Db, a: ActivityInsert): void {
  const r = db
    .prepare('INSERT INTO activity (workspace_id, checklist_id, task_id, member_id, action, text, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    .run(a.workspace_id, a.checklist_id, a.task_id, a.member_id, a.action, a.text, a.data, a.created_at);
  quietChanges(db, r.changes);
}
