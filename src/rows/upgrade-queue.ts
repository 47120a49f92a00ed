// The upgrade queue as /_emulator/upgrades shows it: upgrade_jobs with their checklist's
// and template's keys, newest first.
import type { Db } from '../store/open';
import type { UpgradeJobRow } from './upgrade-jobs';

/** A job row (SELECT j.*) with its checklist's and template's keys. */
export type QueuedJob = UpgradeJobRow & { checklist_key: string; template_key: string };

/** The last `limit` jobs, newest first. */
export function recentUpgradeJobs(db: Db, limit: number): QueuedJob[] {
  return db
    .prepare<[number], QueuedJob>(
      `SELECT j.*, c.key AS checklist_key, t.key AS template_key FROM upgrade_jobs j
         JOIN checklists c ON c.id = j.checklist_id JOIN templates t ON t.id = j.template_id ORDER BY j.id DESC LIMIT ?`,
    )
    .all(limit);
}
