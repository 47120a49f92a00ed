// Upgrade jobs as stored (schema.sql `upgrade_jobs`): one queued rebuild of a checklist onto a
// template version, run by the upgrade worker (src/upgrades/worker.ts, docs/upgrades.md).
import type { Db } from '../store/open';
import { insertOf, type RowOf } from '../store/columns';
import { upgradeJobsTable } from '../store/tables/checklists';

/** An upgrade job row as stored (store/tables/checklists.ts). */
export type UpgradeJobRow = RowOf<typeof upgradeJobsTable.columns>;

export const upgradeJobById = (db: Db, id: number): UpgradeJobRow | undefined => db.prepare<[number], UpgradeJobRow>('SELECT * FROM upgrade_jobs WHERE id = ?').get(id);

/** The checklist's job still queued, if any. */
export const queuedJobOfChecklist = (db: Db, checklistId: number): number | undefined =>
  db.prepare<[number], { id: number }>("SELECT id FROM upgrade_jobs WHERE checklist_id = ? AND state = 'queued'").get(checklistId)?.id;

/** Points a queued job at a newer request (the last request wins). */
export const requeueJob = (db: Db, id: number, j: Pick<UpgradeJobRow, 'target_version' | 'requested_by' | 'request_id' | 'run_at'>): void =>
  void db.prepare('UPDATE upgrade_jobs SET target_version = ?, requested_by = ?, request_id = ?, run_at = ? WHERE id = ?').run(j.target_version, j.requested_by, j.request_id, j.run_at, id);

const JOB_COLUMNS = ['workspace_id', 'template_id', 'checklist_id', 'target_version', 'requested_by', 'request_id', 'run_at', 'created_at'] as const;
/** A job, queued (the schema's default state). */
const JOB_INSERT = insertOf<typeof upgradeJobsTable.columns, Pick<UpgradeJobRow, (typeof JOB_COLUMNS)[number]>>(upgradeJobsTable, JOB_COLUMNS);

export const insertUpgradeJob = (db: Db, j: Pick<UpgradeJobRow, (typeof JOB_COLUMNS)[number]>): void => void db.prepare(JOB_INSERT.sql).run(JOB_INSERT.values(j));

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
