// Schedules that start checklists from a template on a recurrence (spec v3 1, 2.1, 4.1
// rule 6, 5.4, 5.5, 5.9; shapes designed in docs/schedules.md). Order of refusals:
// the body (400) before anything it names is looked up (404), then rights (403), then
// state (409), as everywhere in v3.
import type { Ctx } from '../../context';
import { conflict, validationError } from '../../errors';
import { templateIdOf } from '../checklists/list';
import { compareText, cursorScope, paginate, parseSort } from '../paging';
import { assertCanRunFor, assertCanViewSchedules, assertScheduleCreator } from './access';
import { WEEKDAYS, occurrences, parseDate, parseStart, parseZone, startOf, type Frequency, type Recurrence, type Series, type Weekday } from './recurrence';
import { dropScheduledChecklist, ensureScheduledChecklist, materialize, replan, scheduleCreatorId } from './plan';
import { findSchedule, nextRun, recurrenceOf, scheduleById } from './lookup';
import { deleteSchedule as deleteScheduleRow, insertSchedule, schedulesOfWorkspace, updateSchedule, upcomingRuns } from '../../rows/schedules';
import { scheduleView } from './view';
import { templateIsArchived } from '../../rows/templates';
import { renameScheduledChecklist } from '../../rows/checklists';

export interface RecurrenceInput {
  frequency: Frequency;
  interval?: number;
  daysOfWeek?: Weekday[];
  endDate?: string;
  count?: number;
}

export interface CreateScheduleInput {
  name: string;
  templateKey: string;
  timeZone: string;
  startDateTime: string;
  recurrence?: RecurrenceInput;
}

function checkRecurrence(r: RecurrenceInput, startLocal: string): Recurrence {
  if (r.daysOfWeek !== undefined && r.frequency !== 'Weekly') {
    throw validationError(`recurrence.daysOfWeek is only for the Weekly frequency; a ${r.frequency} schedule runs on the start date's calendar pattern.`, 'recurrence.daysOfWeek');
  }
  if (r.endDate !== undefined && r.count !== undefined) {
    throw validationError('recurrence takes an end date or a count, not both.', 'recurrence.count');
  }
  const out: Recurrence = { frequency: r.frequency, interval: r.interval ?? 1 };
  if (r.daysOfWeek) out.daysOfWeek = [...new Set(r.daysOfWeek)].sort((a, b) => WEEKDAYS.indexOf(a) - WEEKDAYS.indexOf(b));
  if (r.endDate !== undefined) {
    out.endDate = parseDate(r.endDate, 'recurrence.endDate');
    if (out.endDate < startLocal.slice(0, 10)) throw validationError(`recurrence.endDate ${out.endDate} is before the start date ${startLocal.slice(0, 10)}: the schedule would never run.`, 'recurrence.endDate');
  }
  if (r.count !== undefined) out.count = r.count;
  return out;
}

/** 400 when the series has no run at all (an impossible recurrence). */
function assertRunsAgain(series: Series, field: string): void {
  const first = occurrences(series, 0, 1)[0];
  if (!first) throw validationError(`${field}: the schedule would never run (no date of the recurrence falls on or before its end).`, field);
}

function parseSeries(ctx: Ctx, input: { timeZone: string; startDateTime: string; recurrence?: RecurrenceInput | null }): Series {
  const timeZone = parseZone(input.timeZone, 'timeZone');
  const startLocal = parseStart(input.startDateTime, timeZone, 'startDateTime');
  const recurrence = input.recurrence ? checkRecurrence(input.recurrence, startLocal) : undefined;
  return { timeZone, startLocal, recurrence };
}

function assertStartAhead(ctx: Ctx, series: Series): void {
  const start = startOf(series);
  if (start.at < ctx.now()) {
    throw validationError(
      `startDateTime ${series.startLocal} (${series.timeZone}) is in the past: a schedule starts now or later. It is ${new Date(ctx.now()).toISOString()} now.`,
      'startDateTime',
    );
  }
}

function assertTemplateActive(ctx: Ctx, templateId: number): void {
  if (templateIsArchived(ctx.db, templateId)) throw conflict('The template is archived: checklists cannot be started from an archived template, so no schedule can run it. An Administrator can unarchive it.');
}

export function createSchedule(ctx: Ctx, input: CreateScheduleInput) {
  const series = parseSeries(ctx, input);
  assertStartAhead(ctx, series);
  assertRunsAgain(series, input.recurrence?.endDate !== undefined ? 'recurrence.endDate' : 'recurrence');
  const templateId = templateIdOf(ctx, input.templateKey);
  assertScheduleCreator(ctx, 'create schedules');
  assertCanRunFor(ctx, templateId, 'schedule checklists of this template');
  assertTemplateActive(ctx, templateId);
  const now = ctx.now();
  const id = insertSchedule(ctx.db, {
    workspace_id: ctx.workspace.id, template_id: templateId, name: input.name.trim(), data: JSON.stringify(series.recurrence ?? {}),
    created_at: now, created_by: scheduleCreatorId(ctx), time_zone: series.timeZone, start_local: series.startLocal,
  });
  materialize(ctx.db, id);
  ensureScheduledChecklist(ctx.db, id, now);
  return scheduleView(ctx, scheduleById(ctx.db, id)!);
}

export function getSchedule(ctx: Ctx, id: number) {
  const s = findSchedule(ctx, id);
  assertCanViewSchedules(ctx);
  return scheduleView(ctx, s);
}

export const SCHEDULE_SORTS = ['createdDateTime', 'name', 'nextRunDateTime'] as const;

export function listSchedules(ctx: Ctx, input: { templateKey?: string; sort?: string; after?: string; pageSize?: number }) {
  const templateId = input.templateKey === undefined ? undefined : templateIdOf(ctx, input.templateKey);
  assertCanViewSchedules(ctx);
  const sort = parseSort(input.sort, SCHEDULE_SORTS, { field: 'createdDateTime', dir: 'asc' });
  const pageSize = input.pageSize ?? 50;
  const rows = schedulesOfWorkspace(ctx.db, ctx.workspace.id, templateId);
  const nextAt = new Map(rows.map((s) => [s.id, nextRun(ctx.db, s.id)?.scheduled_at]));
  const dir = sort.dir === 'asc' ? 1 : -1;
  rows.sort((a, b) => {
    if (sort.field === 'name') return dir * compareText(a.name, b.name) || a.id - b.id;
    if (sort.field === 'nextRunDateTime') {
      const x = nextAt.get(a.id);
      const y = nextAt.get(b.id);
      // Ended schedules (no next run) come last in both directions.
      if (x === undefined || y === undefined) return (x === undefined ? 1 : 0) - (y === undefined ? 1 : 0) || a.id - b.id;
      return dir * (x - y) || a.id - b.id;
    }
    return dir * (a.created_at - b.created_at) || dir * (a.id - b.id);
  });
  const binding = [...cursorScope(ctx), 'schedules', templateId ?? null, `${sort.field}:${sort.dir}`, pageSize];
  return paginate(rows, pageSize, input.after, binding, (s) => scheduleView(ctx, s));
}

export interface PatchScheduleInput {
  scheduleId: number;
  name?: string | null;
  templateKey?: string | null;
  timeZone?: string | null;
  startDateTime?: string | null;
  recurrence?: RecurrenceInput | null;
}

/** PATCH (4.1 rule 8): a value sets, null clears where clearable (only `recurrence`: one run), omitted is unchanged. */
export function patchSchedule(ctx: Ctx, input: PatchScheduleInput) {
  for (const f of ['name', 'templateKey', 'timeZone', 'startDateTime'] as const) {
    if (input[f] === null) throw validationError(`${f} cannot be cleared: every schedule has one.`, f);
  }
  const s0 = findSchedule(ctx, input.scheduleId);
  const timing = input.timeZone !== undefined || input.startDateTime !== undefined || input.recurrence !== undefined;
  let series: Series | undefined;
  if (timing) {
    const startLocal = input.startDateTime ?? s0.start_local;
    series = parseSeries(ctx, {
      timeZone: input.timeZone ?? s0.time_zone,
      startDateTime: startLocal,
      recurrence: input.recurrence === undefined ? recurrenceOf(s0) : input.recurrence,
    });
    if (input.startDateTime !== undefined) assertStartAhead(ctx, series);
  }
  const templateId = input.templateKey == null ? s0.template_id : templateIdOf(ctx, input.templateKey);
  assertScheduleCreator(ctx, 'change schedules');
  if (templateId !== s0.template_id) {
    assertCanRunFor(ctx, templateId, 'schedule checklists of this template');
    assertTemplateActive(ctx, templateId);
  }
  const now = ctx.now();
  const name = input.name == null ? s0.name : input.name.trim();
  const data = series ? JSON.stringify(series.recurrence ?? {}) : s0.data;
  updateSchedule(ctx.db, s0.id, { name, template_id: templateId, time_zone: series?.timeZone ?? s0.time_zone, start_local: series?.startLocal ?? s0.start_local, data, updated_at: now });
  if (timing || templateId !== s0.template_id) {
    if (!replan(ctx.db, s0.id, now)) {
      const field = input.recurrence ? (input.recurrence.endDate !== undefined ? 'recurrence.endDate' : input.recurrence.count !== undefined ? 'recurrence.count' : 'recurrence') : input.startDateTime !== undefined ? 'startDateTime' : input.timeZone !== undefined ? 'timeZone' : 'recurrence';
      throw validationError(`${field}: the changed schedule would never run again (no run of its recurrence falls after now).`, field);
    }
  } else if (name !== s0.name) {
    // The Scheduled checklist of the next run carries the schedule's name.
    const next = nextRun(ctx.db, s0.id);
    if (next?.checklist_id != null) renameScheduledChecklist(ctx.db, next.checklist_id, name);
  }
  return scheduleView(ctx, scheduleById(ctx.db, s0.id)!);
}

/** DELETE: the schedule, its runs and the `Scheduled` checklist of its next run go; checklists it started stay. */
export function deleteSchedule(ctx: Ctx, id: number): void {
  const s = findSchedule(ctx, id);
  assertScheduleCreator(ctx, 'delete schedules');
  for (const r of upcomingRuns(ctx.db, s.id)) dropScheduledChecklist(ctx.db, r);
  deleteScheduleRow(ctx.db, s.id);
}
