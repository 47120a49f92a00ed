// A schedule's runs: list, skip one, create its checklist now (spec v3 5.5 row
// "skip a run, create its checklist now"; shapes in docs/schedules.md).
import type { Ctx } from '../../context';
import { conflict, validationError } from '../../errors';
import { cursorScope, paginate, parseSort } from '../paging';
import { assertCanRunFor, assertCanViewSchedules, assertScheduleCreator } from './access';
import { dropScheduledChecklist, ensureScheduledChecklist, materialize, startRun } from './plan';
import { findRun, findSchedule, runById, type RunStatus } from './lookup';
import { markRunSkipped, runsOfSchedule } from '../../rows/schedules';
import { runView } from './view';
import { templateIsArchived } from '../../rows/templates';

export const RUN_STATUSES: RunStatus[] = ['Upcoming', 'Started', 'Skipped', 'Failed'];

function parseStatuses(v: string | undefined): RunStatus[] | undefined {
  if (v === undefined) return undefined;
  const out: RunStatus[] = [];
  for (const part of v.split(',')) {
    const norm = part.replace(/[\s_-]/g, '').toLowerCase();
    const hit = RUN_STATUSES.find((s) => s.toLowerCase() === norm);
    if (!hit) throw validationError(`status must be a comma-separated list of ${RUN_STATUSES.join(', ')}.`, 'status');
    out.push(hit);
  }
  return out;
}

export function listRuns(ctx: Ctx, input: { scheduleId: number; status?: string; sort?: string; after?: string; pageSize?: number }) {
  const statuses = parseStatuses(input.status);
  const sort = parseSort(input.sort, ['scheduledDateTime'], { field: 'scheduledDateTime', dir: 'asc' });
  const s = findSchedule(ctx, input.scheduleId);
  assertCanViewSchedules(ctx);
  const pageSize = input.pageSize ?? 50;
  let rows = runsOfSchedule(ctx.db, s.id);
  if (statuses) rows = rows.filter((r) => statuses.includes(r.status));
  if (sort.dir === 'desc') rows.reverse();
  const binding = [...cursorScope(ctx), 'schedule-runs', s.id, statuses ?? null, `${sort.field}:${sort.dir}`, pageSize];
  return paginate(rows, pageSize, input.after, binding, (r) => runView(ctx, r));
}

function actionable(ctx: Ctx, scheduleId: number, runId: number, what: string) {
  const s = findSchedule(ctx, scheduleId);
  const run = findRun(ctx, s, runId);
  assertScheduleCreator(ctx, what);
  assertCanRunFor(ctx, s.template_id, what);
  return { s, run };
}

/** Skips an upcoming run: it will not start; its `Scheduled` checklist is removed. Skipping a skipped run changes nothing. */
export function skipRun(ctx: Ctx, input: { scheduleId: number; runId: number }) {
  const { s, run } = actionable(ctx, input.scheduleId, input.runId, 'skip runs of this schedule');
  if (run.status === 'Skipped') return runView(ctx, run);
  if (run.status !== 'Upcoming') throw conflict(`Run ${run.id} is ${run.status === 'Started' ? 'already started' : 'failed'}: only an upcoming run can be skipped.`);
  dropScheduledChecklist(ctx.db, run);
  markRunSkipped(ctx.db, run.id, ctx.now(), ctx.actor.member.id);
  materialize(ctx.db, s.id);
  ensureScheduledChecklist(ctx.db, s.id, ctx.now());
  return runView(ctx, runById(ctx.db, run.id)!);
}

/** Creates (starts) an upcoming run's checklist now instead of at its time; the run then counts as started. */
export function startRunNow(ctx: Ctx, input: { scheduleId: number; runId: number }) {
  const { s, run } = actionable(ctx, input.scheduleId, input.runId, 'create checklists of this schedule');
  if (run.status !== 'Upcoming') throw conflict(`Run ${run.id} is ${run.status === 'Started' ? 'already started' : run.status.toLowerCase()}: only an upcoming run's checklist can be created now.`);
  if (templateIsArchived(ctx.db, s.template_id)) throw conflict('The template is archived: checklists cannot be started from an archived template. An Administrator can unarchive it.');
  return runView(ctx, startRun(ctx, run.id, true));
}
