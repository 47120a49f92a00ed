// Rows of schema.sql `schedules` and `schedule_runs`, and lookups scoped to the workspace
// (another workspace's schedule is 404, never 403: spec v3 5.10).
import type { Ctx } from '../../context';
import type { Db } from '../../store/open';
import { notFound } from '../../errors';
import type { Recurrence, Series } from './recurrence';

export interface ScheduleRow {
  id: number;
  workspace_id: number;
  template_id: number;
  name: string;
  /** JSON of the Recurrence, or '{}' for a single run. */
  data: string;
  created_at: number;
  created_by: number | null;
  time_zone: string;
  start_local: string;
  updated_at: number | null;
  plan: number;
  next_seq: number;
  is_ended: number;
}

export type RunStatus = 'Upcoming' | 'Started' | 'Skipped' | 'Failed';

export interface RunRow {
  id: number;
  schedule_id: number;
  plan: number;
  seq: number;
  scheduled_at: number;
  local: string;
  status: RunStatus;
  checklist_id: number | null;
  started_at: number | null;
  skipped_at: number | null;
  skipped_by: number | null;
  reason: string | null;
}

export function recurrenceOf(s: Pick<ScheduleRow, 'data'>): Recurrence | undefined {
  const r = JSON.parse(s.data) as Partial<Recurrence>;
  return r.frequency ? (r as Recurrence) : undefined;
}

export const seriesOf = (s: ScheduleRow): Series => ({ timeZone: s.time_zone, startLocal: s.start_local, recurrence: recurrenceOf(s) });

export function findSchedule(ctx: Pick<Ctx, 'db' | 'workspace'>, id: number): ScheduleRow {
  const row = ctx.db.prepare<[number, number], ScheduleRow>('SELECT * FROM schedules WHERE id = ? AND workspace_id = ?').get(id, ctx.workspace.id);
  if (!row) throw notFound('SCHEDULE_NOT_FOUND', `No schedule with id ${id} exists in this workspace.`);
  return row;
}

export function findRun(ctx: Pick<Ctx, 'db'>, schedule: ScheduleRow, runId: number): RunRow {
  const row = ctx.db.prepare<[number, number], RunRow>('SELECT * FROM schedule_runs WHERE id = ? AND schedule_id = ?').get(runId, schedule.id);
  if (!row) throw notFound('SCHEDULE_RUN_NOT_FOUND', `Schedule ${schedule.id} has no run with id ${runId}.`);
  return row;
}

export const scheduleById = (db: Db, id: number) => db.prepare<[number], ScheduleRow>('SELECT * FROM schedules WHERE id = ?').get(id);
export const runById = (db: Db, id: number) => db.prepare<[number], RunRow>('SELECT * FROM schedule_runs WHERE id = ?').get(id);

/** The earliest run still to come, if any. */
export const nextRun = (db: Db, scheduleId: number) =>
  db.prepare<[number], RunRow>("SELECT * FROM schedule_runs WHERE schedule_id = ? AND status = 'Upcoming' ORDER BY scheduled_at, id LIMIT 1").get(scheduleId);
