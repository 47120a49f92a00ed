// Lookups of schedules and runs scoped to the workspace (another workspace's schedule is 404,
// never 403: spec v3 5.10), and a schedule's series read from its row. The rows themselves
// are src/rows/schedules.ts.
import type { Ctx } from '../../context';
import { notFound } from '../../errors';
import { runOfSchedule, scheduleInWorkspace, type RunRow, type ScheduleRow } from '../../rows/schedules';
import type { Recurrence, Series } from './recurrence';

export { nextRun, runById, scheduleById, type RunRow, type RunStatus, type ScheduleRow } from '../../rows/schedules';

export function recurrenceOf(s: Pick<ScheduleRow, 'data'>): Recurrence | undefined {
  const r = JSON.parse(s.data) as Partial<Recurrence>;
  return r.frequency ? (r as Recurrence) : undefined;
}

export const seriesOf = (s: ScheduleRow): Series => ({ timeZone: s.time_zone, startLocal: s.start_local, recurrence: recurrenceOf(s) });

export function findSchedule(ctx: Pick<Ctx, 'db' | 'workspace'>, id: number): ScheduleRow {
  const row = scheduleInWorkspace(ctx.db, ctx.workspace.id, id);
  if (!row) throw notFound('SCHEDULE_NOT_FOUND', `No schedule with id ${id} exists in this workspace.`);
  return row;
}

export function findRun(ctx: Pick<Ctx, 'db'>, schedule: ScheduleRow, runId: number): RunRow {
  const row = runOfSchedule(ctx.db, schedule.id, runId);
  if (!row) throw notFound('SCHEDULE_RUN_NOT_FOUND', `Schedule ${schedule.id} has no run with id ${runId}.`);
  return row;
}
