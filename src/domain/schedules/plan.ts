// Planning and starting runs (docs/schedules.md "Runs"). A schedule keeps a window of
// upcoming runs in SQLite, each with its integer id; its earliest upcoming run holds a
// checklist in status `Scheduled` (built on the template's latest version, due dates
// counted from the run's instant). When the run's instant passes on the emulator clock
// that checklist starts: `InProgress`, started at the run's instant, `new_checklist`
// fired. Every step runs inside the caller's transaction, so a run starts exactly once.
import { startLinkedChecklists } from '../checklists/linked';
import type { Ctx } from '../../context';
import type { Db } from '../../store/open';
import { versionDocument } from '../../rows/template-document';
import { startChecklist } from '../checklists/start';
import { workspaceCreatorId } from '../checklists/create';
import { removeTag } from '../tags/apply';
import { occurrences, firstSeqAfter } from './recurrence';
import { nextRun, runById, scheduleById, seriesOf, type RunRow, type ScheduleRow } from './lookup';
import {
  deleteUpcomingRuns, insertUpcomingRun, markRunFailed, markRunStarted, setRunChecklist, setSeriesProgress, startNewPlan, upcomingRunCount, upcomingRuns,
} from '../../rows/schedules';
import { templateState } from '../../rows/templates';
import {
  checklistStatusById, deleteChecklist, scheduledChecklistAt, scheduledChecklistById, setChecklistSchedule, setChecklistScheduled, setChecklistScheduledAt, setChecklistStarted,
  type ScheduledChecklist,
} from '../../rows/checklists';
import { tagsOnChecklistAndTasks } from '../../rows/tags';
import { shiftTaskDues } from '../../rows/tasks';

/** Upcoming runs kept materialized per schedule (each has an id a client can skip). */
export const WINDOW = 10;


/** Tops the window of upcoming runs up from the series (marks the schedule ended when the series runs out). */
export function materialize(db: Db, scheduleId: number): void {
  const s = scheduleById(db, scheduleId)!;
  if (s.is_ended) return;
  const upcoming = upcomingRunCount(db, s.id);
  const want = WINDOW - upcoming;
  if (want <= 0) return;
  const occ = occurrences(seriesOf(s), s.next_seq, want);
  for (const o of occ) insertUpcomingRun(db, { schedule_id: s.id, plan: s.plan, seq: o.seq, scheduled_at: o.at, local: o.local });
  const next = occ.length ? occ[occ.length - 1].seq + 1 : s.next_seq;
  setSeriesProgress(db, s.id, next, occ.length < want);
}

/** Who a schedule's checklists are recorded against: its creator (the workspace key's creator for a workspace key, 5.9). */
const creatorOf = (s: ScheduleRow) => s.created_by;

/** Gives the earliest upcoming run its `Scheduled` checklist, when it has none and the template can start one. */
export function ensureScheduledChecklist(db: Db, scheduleId: number, now: number): void {
  const s = scheduleById(db, scheduleId)!;
  const run = nextRun(db, s.id);
  if (!run) return;
  const existing = scheduledChecklistOf(db, run);
  if (existing) {
    if (existing.id !== run.checklist_id) setRunChecklist(db, run.id, existing.id);
    return;
  }
  const t = templateState(db, s.template_id);
  if (t.is_archived) return; // 5.10: nothing starts from an archived template; the run fails when due
  const id = buildChecklist(db, s, run.scheduled_at, now);
  setChecklistScheduled(db, id);
  setRunChecklist(db, run.id, id);
}

function buildChecklist(db: Db, s: ScheduleRow, startedAt: number, now: number): number {
  const t = templateState(db, s.template_id);
  const { id } = startChecklist(db, {
    workspaceId: s.workspace_id,
    templateId: s.template_id,
    version: t.latest_version,
    doc: versionDocument(db, s.template_id, t.latest_version)!,
    name: s.name,
    createdBy: creatorOf(s),
    now,
    startedAt,
  });
  setChecklistSchedule(db, id, startedAt, s.id);
  return id;
}

/** Removes a run's checklist while it is still `Scheduled` (a started one is never touched). */
export function dropScheduledChecklist(db: Db, run: RunRow): void {
  if (run.checklist_id === null) return;
  const c = checklistStatusById(db, run.checklist_id);
  if (c && c.status === 'Scheduled') {
    // Tags hang off rows by id without a foreign key: take them off so a tag goes with its last carrier.
    const tagged = tagsOnChecklistAndTasks(db, c.id);
    for (const t of tagged) removeTag(db, c.workspace_id, t.target_type, t.target_id, t.name);
    deleteChecklist(db, c.id);
  }
  setRunChecklist(db, run.id, null);
}

/**
 * The run's `Scheduled` checklist: by id, or, should something have rebuilt it under a new
 * row id (an upgrade keeps the key, not necessarily the row), by schedule and instant.
 */
function scheduledChecklistOf(db: Db, run: RunRow): ScheduledChecklist | undefined {
  const byId = run.checklist_id === null ? undefined : scheduledChecklistById(db, run.checklist_id);
  if (byId) return byId;
  if (run.checklist_id === null) return undefined;
  return scheduledChecklistAt(db, run.schedule_id, run.scheduled_at);
}

/**
 * Starts a run's checklist: at its instant (the clock reached it) or now (`early`, the
 * "create its checklist now" route). Returns the run as it is afterwards. The `Scheduled`
 * checklist is started in place (same key); an early start moves its task due dates by
 * as much as the start moved. Without one, a checklist is started fresh.
 */
export function startRun(ctx: Ctx, runId: number, early: boolean): RunRow {
  const db = ctx.db;
  const run = runById(db, runId)!;
  const s = scheduleById(db, run.schedule_id)!;
  const now = ctx.now();
  const at = early ? now : run.scheduled_at;
  if (templateState(db, s.template_id).is_archived) {
    dropScheduledChecklist(db, run);
    markRunFailed(db, run.id, 'The template is archived: checklists cannot be started from an archived template (spec v3 5.10).');
  } else {
    const current = scheduledChecklistOf(db, run);
    let checklistId: number;
    if (current && current.status === 'Scheduled') {
      checklistId = current.id;
      const shift = at - (current.scheduled_at ?? run.scheduled_at);
      if (shift !== 0) shiftTaskDues(db, checklistId, shift);
      setChecklistStarted(db, checklistId, at);
    } else {
      checklistId = buildChecklist(db, s, at, now);
      setChecklistScheduledAt(db, checklistId, run.scheduled_at);
    }
    markRunStarted(db, run.id, at, checklistId);
    // 6.3: new_checklist fires once per checklist started, a schedule's included.
    ctx.hooks.event?.(ctx, 'new_checklist', { checklistId });
    // A started checklist starts the children of its Linked Checklist controls (docs/upgrades.md).
    startLinkedChecklists(ctx, checklistId);
  }
  materialize(db, s.id);
  ensureScheduledChecklist(db, s.id, now);
  return runById(db, run.id)!;
}

/**
 * Re-plans a changed series: upcoming runs (and the `Scheduled` checklist) go, a new plan
 * starts with the first occurrence after now. Runs that happened stay as history.
 * Returns false when the changed series has no occurrence after now.
 */
export function replan(db: Db, scheduleId: number, now: number): boolean {
  const s = scheduleById(db, scheduleId)!;
  const first = firstSeqAfter(seriesOf(s), now);
  if (first === undefined) return false;
  for (const r of upcomingRuns(db, s.id)) dropScheduledChecklist(db, r);
  deleteUpcomingRuns(db, s.id);
  startNewPlan(db, s.id, first);
  materialize(db, s.id);
  ensureScheduledChecklist(db, s.id, now);
  return true;
}

/** The workspace creator for schedules made with a workspace key (5.9 "created as the workspace's creator"). */
export const scheduleCreatorId = (ctx: Ctx): number => (ctx.actor.kind === 'workspace' ? workspaceCreatorId(ctx) : ctx.actor.member.id);
