// Checklist rows as stored (schema.sql `checklists`), with their finders and writers.
import type { Db } from '../store/open';
import { memoized } from '../store/memo';
import { insertOf, type InsertOf, type RowOf } from '../store/columns';
import { checklistsTable } from '../store/tables/checklists';

/** A checklist row as stored (store/tables/checklists.ts). */
export type ChecklistRow = RowOf<typeof checklistsTable.columns>;

export function checklistById(db: Db, id: number): ChecklistRow | undefined {
  return db.prepare<[number], ChecklistRow>('SELECT * FROM checklists WHERE id = ?').get(id);
}

/** What a checklist's status refresh reads of it (tasks/status.ts). */
export type ChecklistRunRow = Pick<ChecklistRow, 'id' | 'status' | 'template_id' | 'template_version'>;

// Remembered until a checklist row is written (store/memo.ts): a task's status write writes no
// checklist row unless it completes or reopens the checklist.
const runRowOf = memoized<number, ChecklistRunRow | null>(
  { name: 'checklist run row', reads: ['checklists'] },
  (db, id) => db.prepare<[number], ChecklistRunRow>('SELECT id, status, template_id, template_version FROM checklists WHERE id = ?').get(id) ?? null,
);

/** Shared: callers only read it. */
export function checklistRunById(db: Db, id: number): ChecklistRunRow | undefined {
  return runRowOf(db, id) ?? undefined;
}

/** A checklist of the workspace by its key (a GUID, compared without case). */
export function checklistByKey(db: Db, workspaceId: number, key: string): ChecklistRow | undefined {
  return db.prepare<[string, number], ChecklistRow>('SELECT * FROM checklists WHERE key = ? COLLATE NOCASE AND workspace_id = ?').get(key, workspaceId);
}

/** The template and version a checklist runs, as its reference shows them (spec v3 2.4). */
export function templateVersionOfChecklist(
  db: Db,
  templateId: number,
  version: number,
): { key: string; name: string; description: string | null; created_at: number | null } | undefined {
  return db
    .prepare<[number, number], { key: string; name: string; description: string | null; created_at: number | null }>(
      `SELECT t.key, v.name, v.description, v.created_at
         FROM templates t LEFT JOIN template_versions v ON v.template_id = t.id AND v.version = ?
        WHERE t.id = ?`,
    )
    .get(version, templateId);
}

/** The last outstanding task was finished. */
export function setChecklistComplete(db: Db, id: number, at: number): void {
  db.prepare("UPDATE checklists SET status = 'Complete', completed_at = ? WHERE id = ?").run(at, id);
}

/** A task was left outstanding on a complete checklist. */
export function reopenChecklist(db: Db, id: number): void {
  db.prepare("UPDATE checklists SET status = 'InProgress', completed_at = NULL WHERE id = ?").run(id);
}

export function setChecklistName(db: Db, id: number, name: string): void {
  db.prepare('UPDATE checklists SET name = ? WHERE id = ?').run(name, id);
}

export function setChecklistDue(db: Db, id: number, dueAt: number | null): void {
  db.prepare('UPDATE checklists SET due_at = ? WHERE id = ?').run(dueAt, id);
}

export function setChecklistArchived(db: Db, id: number, archived: boolean): void {
  db.prepare('UPDATE checklists SET is_archived = ? WHERE id = ?').run(archived ? 1 : 0, id);
}

/** The share link's secret, or null when not shared. */
export function setShareToken(db: Db, id: number, token: string | null): void {
  db.prepare('UPDATE checklists SET share_token = ? WHERE id = ?').run(token, id);
}

/** Deletes the checklist; its tasks go with it (ON DELETE CASCADE), attached standalone tasks are detached. */
export function deleteChecklist(db: Db, id: number): void {
  db.prepare('DELETE FROM checklists WHERE id = ?').run(id);
}

/** Counts of a checklist's own tasks, headings not counted. */
export function taskStatusCounts(db: Db, checklistId: number): { total: number; complete: number | null; na: number | null } {
  return db
    .prepare<[number], { total: number; complete: number | null; na: number | null }>(
      `SELECT COUNT(*) AS total, SUM(status = 'Complete') AS complete, SUM(status = 'NotApplicable') AS na
         FROM tasks WHERE checklist_id = ? AND is_heading = 0`,
    )
    .get(checklistId)!;
}

// ── schedules (docs/schedules.md "Runs") ────────────────────────────────────────

/** Parks a just-built checklist as its run's `Scheduled` one. */
export function setChecklistScheduled(db: Db, id: number): void {
  db.prepare("UPDATE checklists SET status = 'Scheduled', started_at = NULL WHERE id = ?").run(id);
}

export function setChecklistSchedule(db: Db, id: number, scheduledAt: number, scheduleId: number): void {
  db.prepare('UPDATE checklists SET scheduled_at = ?, schedule_id = ? WHERE id = ?').run(scheduledAt, scheduleId, id);
}

export function setChecklistScheduledAt(db: Db, id: number, scheduledAt: number): void {
  db.prepare('UPDATE checklists SET scheduled_at = ? WHERE id = ?').run(scheduledAt, id);
}

/** A `Scheduled` checklist starts. */
export function setChecklistStarted(db: Db, id: number, at: number): void {
  db.prepare("UPDATE checklists SET status = 'InProgress', started_at = ? WHERE id = ?").run(at, id);
}

export function checklistStatusById(db: Db, id: number): Pick<ChecklistRow, 'id' | 'workspace_id' | 'status'> | undefined {
  return db.prepare<[number], Pick<ChecklistRow, 'id' | 'workspace_id' | 'status'>>('SELECT id, workspace_id, status FROM checklists WHERE id = ?').get(id);
}

export type ScheduledChecklist = Pick<ChecklistRow, 'id' | 'status' | 'scheduled_at'>;

export function scheduledChecklistById(db: Db, id: number): ScheduledChecklist | undefined {
  return db.prepare<[number], ScheduledChecklist>('SELECT id, status, scheduled_at FROM checklists WHERE id = ?').get(id);
}

/** The schedule's `Scheduled` checklist for one instant, the oldest when several. */
export function scheduledChecklistAt(db: Db, scheduleId: number, scheduledAt: number): ScheduledChecklist | undefined {
  return db
    .prepare<[number, number], ScheduledChecklist>("SELECT id, status, scheduled_at FROM checklists WHERE schedule_id = ? AND scheduled_at = ? AND status = 'Scheduled' ORDER BY id LIMIT 1")
    .get(scheduleId, scheduledAt);
}

export function checklistHeadById(db: Db, id: number): { key: string; name: string; status: string } | undefined {
  return db.prepare<[number], { key: string; name: string; status: string }>('SELECT key, name, status FROM checklists WHERE id = ?').get(id);
}

/** Renames the checklist only while it is still `Scheduled`. */
export function renameScheduledChecklist(db: Db, id: number, name: string): void {
  db.prepare("UPDATE checklists SET name = ? WHERE id = ? AND status = 'Scheduled'").run(name, id);
}

// ── upgrades (spec v3 4.4; docs/upgrades.md) ────────────────────────────────────

/** Upgrade candidates for `target`: newest start date first (no start date last), then newest first. */
export function upgradeCandidates(db: Db, templateId: number, target: number): ChecklistRow[] {
  return db
    .prepare<[number, number], ChecklistRow>(
      `SELECT * FROM checklists
        WHERE template_id = ? AND template_version != ? AND is_archived = 0 AND rebuilding = 0
        ORDER BY started_at IS NULL, started_at DESC, id DESC`,
    )
    .all(templateId, target);
}

/** The checklist is queued for (or in) a rebuild. */
export function markRebuilding(db: Db, id: number): void {
  db.prepare('UPDATE checklists SET rebuilding = 1 WHERE id = ?').run(id);
}

export function clearRebuilding(db: Db, id: number): void {
  db.prepare('UPDATE checklists SET rebuilding = 0 WHERE id = ?').run(id);
}

export function setChecklistVersion(db: Db, id: number, version: number): void {
  db.prepare('UPDATE checklists SET template_version = ? WHERE id = ?').run(version, id);
}

/** A checklist of the workspace by its integer id (legacy spec 2); another workspace's is undefined. */
export function checklistOfWorkspace(db: Db, workspaceId: number, id: number): ChecklistRow | undefined {
  return db.prepare<[number, number], ChecklistRow>('SELECT * FROM checklists WHERE id = ? AND workspace_id = ?').get(id, workspaceId);
}

/** Every checklist of the workspace, oldest id first. */
export function checklistsOfWorkspace(db: Db, workspaceId: number): ChecklistRow[] {
  return db.prepare<[number], ChecklistRow>('SELECT * FROM checklists WHERE workspace_id = ? ORDER BY id').all(workspaceId);
}

/** How many checklists of the workspace run one of the templates (ids are integers from rows). */
export function countChecklistsOfTemplates(db: Db, workspaceId: number, templateIds: number[]): number {
  return db.prepare<[number], { n: number }>(`SELECT count(*) AS n FROM checklists WHERE workspace_id = ? AND template_id IN (${templateIds.join(', ')})`).get(workspaceId)!.n;
}

export interface ChecklistInsert {
  key: string;
  workspaceId: number;
  templateId: number;
  version: number;
  name: string;
  createdBy: number | null;
  now: number;
  startedAt: number;
  dueAt: number | null;
}

/** A new running checklist; returns its row id. */
export function insertChecklistRow(db: Db, c: ChecklistInsert): number {
  return insertChecklist(db, {
    key: c.key, workspace_id: c.workspaceId, template_id: c.templateId, template_version: c.version, name: c.name, status: 'InProgress',
    created_by: c.createdBy, created_at: c.now, started_at: c.startedAt, due_at: c.dueAt,
  });
}

const CHECKLIST_INSERT = insertOf(checklistsTable);

/** The one INSERT of a checklist (store/columns.ts insertOf: defaults and NULLs may be left out); answers its row id. */
export function insertChecklist(db: Db, c: InsertOf<typeof checklistsTable.columns>): number {
  return Number(db.prepare(CHECKLIST_INSERT.sql).run(CHECKLIST_INSERT.values(c)).lastInsertRowid);
}

export function setChecklistParameters(db: Db, id: number, json: string): void {
  db.prepare('UPDATE checklists SET parameters = ? WHERE id = ?').run(json, id);
}

/** The list filters of GET /v3/checklists, already checked and resolved (src/domain/checklists/list.ts). */
export interface ChecklistFilterTerms {
  workspaceId: number;
  templateId?: number;
  statuses?: string[];
  isArchived?: boolean;
  includeArchived?: boolean;
  createdBy?: number;
  /** Trimmed and not empty. */
  search?: string;
  /** Trimmed. */
  tag?: string;
}

/** The WHERE terms of the list filters (not the read rule) and their arguments. */
export function checklistFilterSql(f: ChecklistFilterTerms): { where: string[]; args: (string | number)[] } {
  const where = ['workspace_id = ?'];
  const args: (string | number)[] = [f.workspaceId];
  if (f.templateId !== undefined) {
    where.push('template_id = ?');
    args.push(f.templateId);
  }
  if (f.statuses) {
    where.push(`status IN (${f.statuses.map(() => '?').join(',')})`);
    args.push(...f.statuses);
  }
  if (f.isArchived !== undefined) {
    where.push('is_archived = ?');
    args.push(f.isArchived ? 1 : 0);
  } else if (!f.includeArchived) where.push('is_archived = 0');
  if (f.createdBy !== undefined) {
    where.push('created_by = ?');
    args.push(f.createdBy);
  }
  if (f.search) {
    where.push("instr(lower(name), lower(?)) > 0");
    args.push(f.search);
  }
  if (f.tag !== undefined) {
    where.push(
      `id IN (SELECT a.target_id FROM tag_assignments a JOIN tags t ON t.id = a.tag_id
               WHERE a.target_type = 'checklist' AND t.workspace_id = ? AND t.name = ? COLLATE NOCASE)`,
    );
    args.push(f.workspaceId, f.tag);
  }
  return { where, args };
}

/** What filtering, sorting and paging need of a checklist; the full row is read for the page only. */
export type ChecklistSortRow = Pick<ChecklistRow, 'id' | 'template_id' | 'template_version' | 'name' | 'status' | 'created_at' | 'started_at' | 'due_at' | 'completed_at'>;

/** The sort columns of the checklists matching WHERE terms (from checklistFilterSql and the read rule). */
export function checklistSortRows(db: Db, where: string[], args: (string | number)[]): ChecklistSortRow[] {
  return db
    .prepare<(string | number)[], ChecklistSortRow>(
      `SELECT id, template_id, template_version, name, status, created_at, started_at, due_at, completed_at FROM checklists WHERE ${where.join(' AND ')}`,
    )
    .all(...args);
}

/** ORDER BY matching the list's JS sort: no value last in both directions, ties by creation then id. */
const CHECKLIST_ORDER_SQL: Record<string, string> = {
  status: "CASE status WHEN 'Scheduled' THEN 0 WHEN 'InProgress' THEN 1 ELSE 2 END",
  startDateTime: 'started_at',
  dueDateTime: 'due_at',
  completedDateTime: "CASE WHEN status = 'Complete' THEN completed_at END",
  createdDateTime: 'created_at',
};

/** The count of matching checklists and the ids of one page in the list's order. */
export function checklistPageIds(
  db: Db,
  where: string[],
  args: (string | number)[],
  sort: { field: string; dir: 'asc' | 'desc' },
  pageSize: number,
  offset: number,
): { total: number; ids: number[] } {
  const expr = CHECKLIST_ORDER_SQL[sort.field];
  const dir = sort.dir === 'asc' ? 'ASC' : 'DESC';
  const cond = where.join(' AND ');
  const total = db.prepare<(string | number)[], { n: number }>(`SELECT COUNT(*) AS n FROM checklists WHERE ${cond}`).get(...args)!.n;
  const ids = db
    .prepare<(string | number)[], { id: number }>(
      `SELECT id FROM checklists WHERE ${cond} ORDER BY (${expr}) IS NULL, ${expr} ${dir}, created_at ${dir}, id ${dir} LIMIT ? OFFSET ?`,
    )
    .all(...args, pageSize, offset);
  return { total, ids: ids.map((r) => r.id) };
}
