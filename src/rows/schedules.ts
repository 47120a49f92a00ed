// Schedules and their runs as stored (schema.sql `schedules`, `schedule_runs`), with their
// finders and writers. What a schedule means (its series, its window of upcoming runs, the
// checklist a run starts) is src/domain/schedules/.
import type { Db } from '../store/open';
import { insertOf, type RowOf } from '../store/columns';
import { schedulesTable, type scheduleRunsTable } from '../store/tables/schedules';

/** A schedule row as stored (store/tables/schedules.ts). */
export type ScheduleRow = RowOf<typeof schedulesTable.columns>;

/** A run row as stored. */
export type RunRow = RowOf<typeof scheduleRunsTable.columns>;

export type RunStatus = RunRow['status'];

/** A schedule of the workspace. */
export const scheduleInWorkspace = (db: Db, workspaceId: number, id: number) =>
  db.prepare<[number, number], ScheduleRow>('SELECT * FROM schedules WHERE id = ? AND workspace_id = ?').get(id, workspaceId);

export const scheduleById = (db: Db, id: number) => db.prepare<[number], ScheduleRow>('SELECT * FROM schedules WHERE id = ?').get(id);

/** The workspace's schedules by id, of one template when given. */
export const schedulesOfWorkspace = (db: Db, workspaceId: number, templateId?: number) =>
  db
    .prepare<[number, number | null, number | null], ScheduleRow>('SELECT * FROM schedules WHERE workspace_id = ? AND (? IS NULL OR template_id = ?) ORDER BY id')
    .all(workspaceId, templateId ?? null, templateId ?? null);

const SCHEDULE_COLUMNS = ['workspace_id', 'template_id', 'name', 'data', 'created_at', 'created_by', 'time_zone', 'start_local'] as const;
const SCHEDULE_INSERT = insertOf<typeof schedulesTable.columns, Pick<ScheduleRow, (typeof SCHEDULE_COLUMNS)[number]>>(schedulesTable, SCHEDULE_COLUMNS);

export function insertSchedule(db: Db, s: Pick<ScheduleRow, (typeof SCHEDULE_COLUMNS)[number]>): number {
  return Number(db.prepare(SCHEDULE_INSERT.sql).run(SCHEDULE_INSERT.values(s)).lastInsertRowid);
}

export function updateSchedule(db: Db, id: number, s: Pick<ScheduleRow, 'name' | 'template_id' | 'time_zone' | 'start_local' | 'data' | 'updated_at'>): void {
  db.prepare('UPDATE schedules SET name = ?, template_id = ?, time_zone = ?, start_local = ?, data = ?, updated_at = ? WHERE id = ?').run(
    s.name, s.template_id, s.time_zone, s.start_local, s.data, s.updated_at, id,
  );
}

export const deleteSchedule = (db: Db, id: number): void => void db.prepare('DELETE FROM schedules WHERE id = ?').run(id);

/** Where the series stands: the next occurrence to add, and whether it ran out. */
export const setSeriesProgress = (db: Db, id: number, nextSeq: number, ended: boolean): void =>
  void db.prepare('UPDATE schedules SET next_seq = ?, is_ended = ? WHERE id = ?').run(nextSeq, ended ? 1 : 0, id);

/** A new plan starting at occurrence `firstSeq` (the series changed). */
export const startNewPlan = (db: Db, id: number, firstSeq: number): void =>
  void db.prepare('UPDATE schedules SET plan = plan + 1, next_seq = ?, is_ended = 0 WHERE id = ?').run(firstSeq, id);

export const runById = (db: Db, id: number) => db.prepare<[number], RunRow>('SELECT * FROM schedule_runs WHERE id = ?').get(id);

/** A run of the schedule. */
export const runOfSchedule = (db: Db, scheduleId: number, runId: number) =>
  db.prepare<[number, number], RunRow>('SELECT * FROM schedule_runs WHERE id = ? AND schedule_id = ?').get(runId, scheduleId);

/** The earliest run still to come, if any. */
export const nextRun = (db: Db, scheduleId: number) =>
  db.prepare<[number], RunRow>("SELECT * FROM schedule_runs WHERE schedule_id = ? AND status = 'Upcoming' ORDER BY scheduled_at, id LIMIT 1").get(scheduleId);

/** Every run of the schedule, earliest first. */
export const runsOfSchedule = (db: Db, scheduleId: number) =>
  db.prepare<[number], RunRow>('SELECT * FROM schedule_runs WHERE schedule_id = ? ORDER BY scheduled_at, id').all(scheduleId);

export const upcomingRuns = (db: Db, scheduleId: number) =>
  db.prepare<[number], RunRow>("SELECT * FROM schedule_runs WHERE schedule_id = ? AND status = 'Upcoming'").all(scheduleId);

export const upcomingRunCount = (db: Db, scheduleId: number): number =>
  db.prepare<[number], { n: number }>("SELECT COUNT(*) AS n FROM schedule_runs WHERE schedule_id = ? AND status = 'Upcoming'").get(scheduleId)!.n;

export const deleteUpcomingRuns = (db: Db, scheduleId: number): void => void db.prepare("DELETE FROM schedule_runs WHERE schedule_id = ? AND status = 'Upcoming'").run(scheduleId);

/** Adds an upcoming run unless the plan already has that occurrence. */
export const insertUpcomingRun = (db: Db, r: Pick<RunRow, 'schedule_id' | 'plan' | 'seq' | 'scheduled_at' | 'local'>): void =>
  void db.prepare("INSERT OR IGNORE INTO schedule_runs (schedule_id, plan, seq, scheduled_at, local, status) VALUES (?, ?, ?, ?, ?, 'Upcoming')").run(r.schedule_id, r.plan, r.seq, r.scheduled_at, r.local);

export const setRunChecklist = (db: Db, runId: number, checklistId: number | null): void =>
  void db.prepare('UPDATE schedule_runs SET checklist_id = ? WHERE id = ?').run(checklistId, runId);

export const markRunSkipped = (db: Db, runId: number, at: number, by: number): void =>
  void db.prepare("UPDATE schedule_runs SET status = 'Skipped', skipped_at = ?, skipped_by = ? WHERE id = ?").run(at, by, runId);

export const markRunStarted = (db: Db, runId: number, at: number, checklistId: number): void =>
  void db.prepare("UPDATE schedule_runs SET status = 'Started', started_at = ?, checklist_id = ? WHERE id = ?").run(at, checklistId, runId);

export const markRunFailed = (db: Db, runId: number, reason: string): void =>
  void db.prepare("UPDATE schedule_runs SET status = 'Failed', reason = ?, started_at = NULL WHERE id = ?").run(reason, runId);

/** Fails a run that is still upcoming (the worker could not start it). */
export const failUpcomingRun = (db: Db, runId: number, reason: string): void =>
  void db.prepare("UPDATE schedule_runs SET status = 'Failed', reason = ? WHERE id = ? AND status = 'Upcoming'").run(reason, runId);

export interface DueRun {
  id: number;
  workspace_id: number;
  scheduled_at: number;
}

/** Upcoming runs at or before `now`, oldest first, across every workspace. */
export const dueRuns = (db: Db, now: number, limit: number): DueRun[] =>
  db
    .prepare<[number, number], DueRun>(
      `SELECT r.id, s.workspace_id, r.scheduled_at FROM schedule_runs r JOIN schedules s ON s.id = r.schedule_id
        WHERE r.status = 'Upcoming' AND r.scheduled_at <= ? ORDER BY r.scheduled_at, r.id LIMIT ?`,
    )
    .all(now, limit);

/** Whether a run is still upcoming and due (read again inside the transaction that starts it). */
export const stillDue = (db: Db, runId: number, now: number): boolean =>
  db.prepare<[number, number], { n: number }>("SELECT COUNT(*) AS n FROM schedule_runs WHERE id = ? AND status = 'Upcoming' AND scheduled_at <= ?").get(runId, now)!.n === 1;
