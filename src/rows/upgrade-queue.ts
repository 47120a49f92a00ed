// The upgrade queue as /_emulator/upgrades shows it: upgrade_jobs with their checklist's
// and template's keys, newest first.
import type { Db } from '../store/open';

export interface QueuedJob {
  id: number;
  checklist_key: string;
  template_key: string;
  target_version: number;
  state: 'queued' | 'done' | 'failed';
  run_at: number;
  request_id: string | null;
  error: string | null;
  created_at: number;
  finished_at: number | null;
}

/** The last `limit` jobs, newest first. */
export function recentUpgradeJobs(db: Db, limit: number): QueuedJob[] {
  return db
    .prepare<[number], QueuedJob>(
      `SELECT j.*, c.key AS checklist_key, t.key AS template_key FROM upgrade_jobs j
         JOIN checklists c ON c.id = j.checklist_id JOIN templates t ON t.id = j.template_id ORDER BY j.id DESC LIMIT ?`,
    )
    .all(limit);
}
