// The schedule and run resources (spec v3 "not shown"; designed in docs/schedules.md).
// Wall-clock times in the schedule's zone sit beside their UTC instants (4.1 rule 6).
import type { Ctx } from '../../context';
import { iso } from '../../clock';
import { userRef } from '../users';
import { checklistUrl, templateUrl } from '../urls';
import { startOf } from './recurrence';
import { templateRefById } from '../../rows/templates';
import { checklistHeadById } from '../../rows/checklists';
import { nextRun, recurrenceOf, seriesOf, type RunRow, type ScheduleRow } from './lookup';

function templateRef(ctx: Ctx, templateId: number) {
  const t = templateRefById(ctx.db, templateId);
  return { key: t.key, name: t.name, url: templateUrl(ctx, t.key), isArchived: t.is_archived === 1 };
}

export function runView(ctx: Ctx, r: RunRow) {
  const c =
    r.checklist_id === null
      ? undefined
      : checklistHeadById(ctx.db, r.checklist_id);
  return {
    id: r.id,
    scheduleId: r.schedule_id,
    status: r.status,
    scheduledDateTime: r.local,
    scheduledDateTimeUtc: iso(r.scheduled_at)!,
    startedDateTime: iso(r.started_at),
    skippedDateTime: iso(r.skipped_at),
    skippedBy: r.skipped_by === null ? undefined : userRef(ctx.db, r.skipped_by),
    reason: r.reason ?? undefined,
    checklist: c ? { key: c.key, name: c.name, url: checklistUrl(ctx, c.key), status: c.status } : undefined,
  };
}

export function scheduleView(ctx: Ctx, s: ScheduleRow) {
  const start = startOf(seriesOf(s));
  const next = nextRun(ctx.db, s.id);
  const r = recurrenceOf(s);
  return {
    id: s.id,
    name: s.name,
    status: next ? 'Active' : 'Ended',
    template: templateRef(ctx, s.template_id),
    timeZone: s.time_zone,
    startDateTime: start.local,
    startDateTimeUtc: iso(start.at)!,
    recurrence: r ? { frequency: r.frequency, interval: r.interval, daysOfWeek: r.daysOfWeek, endDate: r.endDate, count: r.count } : undefined,
    nextRun: next ? { id: next.id, scheduledDateTime: next.local, scheduledDateTimeUtc: iso(next.scheduled_at)! } : undefined,
    createdBy: userRef(ctx.db, s.created_by),
    createdDateTime: iso(s.created_at)!,
    updatedDateTime: iso(s.updated_at),
  };
}
