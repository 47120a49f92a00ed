// Upgrade jobs as stored (schema.sql `upgrade_jobs`): one queued rebuild of a checklist onto a
// template version, run by the upgrade worker (src/upgrades/worker.ts, docs/upgrades.md).
import type { Db } from '../store/open';

export interface UpgradeJobRow {
  id: number;
  workspace_id: number;
  template_id: number;
  checklist_id: number;
  target_version: number;
  requested_by: number | null;
  request_id: string | null;
  state: 'queued' | 'done' | 'failed';
  run_at: number;
  error: string | null;
  created_at: number;
  finished_at: number | null;
}

export const upgradeJobById = (db: Db, id: number): UpgradeJobRow | undefined => db.prepare<[number], UpgradeJobRow>('SELECT * FROM upgrade_jobs WHERE id = ?').get(id);

/** The checklist's job still queued, if any. */
export const queuedJobOfChecklist = (db: Db, checklistId: number): number | undefined =>
  db.prepare<[number], { id: number }>("SELECT id FROM upgrade_jobs WHERE checklist_id = ? AND state = 'queued'").get(checklistId)?.id;

/** Points a queued job at a newer request (the last request wins). */
export const requeueJob = (db: Db, id: number, j: Pick<UpgradeJobRow, 'target_version' | 'requested_by' | 'request_id' | 'run_at'>): void =>
  void db.prepare('UPDATE upgrade_jobs SET target_version = ?, requested_by = ?, request_id = ?, run_at = ? WHERE id = ?').run(j.target_version, j.requested_by, j.request_id, j.run_at, id);

export const insertUpgradeJob = (db: Db, j: Pick<UpgradeJobRow, 'workspace_id' | 'template_id' | 'checklist_id' | 'target_version' | 'requested_by' | 'request_id' | 'run_at' | 'created_at'>): void =>
  void db
    .prepare('INSERT INTO upgrade_jobs (workspace_id, template_id, checklist_id, target_version, requested_by, request_id, run_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    .run(j.workspace_id, j.template_id, j.checklist_id, j.target_version, j.requested_by, j.request_id, j.run_at, j.created_at);

/** The earliest job due at `now`, of one template when given. */
export const firstDueJob = (db: Db, now: number, templateId?: number): { id: number; template_id: number } | undefined =>
  templateId === undefined
    ? db.prepare<[number], { id: number; template_id: number }>("SELECT id, template_id FROM upgrade_jobs WHERE state = 'queued' AND run_at <= ? ORDER BY run_at, id LIMIT 1").get(now)
    : db
        .prepare<[number, number], { id: number; template_id: number }>("SELECT id, template_id FROM upgrade_jobs WHERE state = 'queued' AND run_at <= ? AND template_id = ? ORDER BY run_at, id LIMIT 1")
        .get(now, templateId);

export const finishJob = (db: Db, id: number, at: number): void => void db.prepare("UPDATE upgrade_jobs SET state = 'done', finished_at = ? WHERE id = ?").run(at, id);

export const failJob = (db: Db, id: number, error: string, at: number): void =>
  void db.prepare("UPDATE upgrade_jobs SET state = 'failed', error = ?, finished_at = ? WHERE id = ?").run(error, at, id);
