// The task state machine (spec v3 3, 4.3 "Complete a task") and the checklist status that
// follows it (docs/tasks.md): InProgress → Complete when the last outstanding task is done,
// Complete → InProgress when one is reopened.
import type { Ctx } from '../../context';
import { conflict } from '../../errors';
import { actorName, recordActivity, type ActivityEntry } from '../activity';
import { checklistDocument, reload, type TaskTarget } from './target';
import { evaluateChecklist, type ChecklistState } from './evaluate';
import { assertTaskReadable, assertTaskRunnable, refuseHeading } from './guard';
import { isAnswered } from './field-values';
import { stateOf, storedAnswers, taskView } from './views';
import { onTaskCompletionChanged } from './due';
import { syncStopVisibility } from './stop-visibility';
import { clearTaskNotApplicable, setTaskComplete, setTaskNotApplicable, setTaskUncompleted, taskStatesOfChecklist } from '../../rows/tasks';
import { countFieldFiles } from '../../rows/files';
import { checklistRunById, reopenChecklist, setChecklistComplete } from '../../rows/checklists';
import { HALTED_COMPLETE_MESSAGE } from '../refusal-texts';

/** The activity entry of a status step (built whole: a literal spreading `where` and adding to it cost microseconds on Node 20). */
const entry = (t: TaskTarget, action: string, text: string): ActivityEntry => ({ checklistId: t.task.checklist_id ?? t.task.attached_checklist_id, taskId: t.task.id, action, text });

/**
 * A checklist is Complete when every task that is not a heading and not hidden by a condition is
 * Complete or NotApplicable; a Scheduled checklist is left alone. Fires checklist_completed on
 * the way to Complete (6). Called after every write that can change the answer.
 */
export function refreshChecklistStatus(ctx: Ctx, checklistId: number): void {
  const c = checklistRunById(ctx.db, checklistId);
  if (!c) return;
  const doc = checklistDocument(ctx, c);
  if (c.status === 'Scheduled') return syncStopVisibility(ctx, checklistId, doc);
  const tasks = taskStatesOfChecklist(ctx.db, checklistId);
  const state = evaluateChecklist(ctx, checklistId, doc, tasks);
  // The grid's Halted follows what a condition hides, as isCurrentlyHalted does (2.4).
  syncStopVisibility(ctx, checklistId, doc, state);
  const outstanding = tasks.some((t) => !t.is_heading && !state.hiddenTasks.has(t.key.toLowerCase()) && t.status !== 'Complete' && t.status !== 'NotApplicable');
  if (!outstanding && c.status !== 'Complete') {
    setChecklistComplete(ctx.db, checklistId, ctx.now());
    recordActivity(ctx, { checklistId, action: 'checklist.completed', text: `The checklist was completed when ${actorName(ctx)} finished its last outstanding task.` });
    ctx.hooks.event?.(ctx, 'checklist_completed', { checklistId });
  } else if (outstanding && c.status === 'Complete') {
    reopenChecklist(ctx.db, checklistId);
    recordActivity(ctx, { checklistId, action: 'checklist.reopened', text: `The checklist was reopened: ${actorName(ctx)} left a task outstanding.` });
  }
}

/** Required fields of the task still unanswered (hidden fields do not count). */
export function unansweredRequired(ctx: Ctx, t: TaskTarget, state: ChecklistState): string[] {
  // Read only when a required field needs them (most tasks have none).
  let answers: Map<string, unknown> | undefined;
  const missing: string[] = [];
  for (const f of t.docTask?.fields ?? []) {
    if (!f.id || f.isRequired !== true || state.hiddenFields.has(f.id.toLowerCase())) continue;
    const answered =
      f.type === 'FileUpload'
        ? countFieldFiles(ctx.db, t.task.id, f.id) > 0
        : isAnswered((answers ??= storedAnswers(ctx, t.task.id)).get(f.id.toLowerCase()));
    if (!answered) missing.push(f.label ? `${f.label} (${f.id})` : f.id);
  }
  return missing;
}

const refresh = (ctx: Ctx, t: TaskTarget) => {
  if (t.task.checklist_id !== null) refreshChecklistStatus(ctx, t.task.checklist_id);
};

/**
 * POST .../complete. Order: read (403), heading (400 taskKey), run permission and exclusive
 * assignment (403), already complete (200, nothing written), not applicable (409), then the three
 * completion checks (409): halted, hidden by a condition, required fields unanswered.
 */
export function completeTask(ctx: Ctx, t: TaskTarget, opts: StepOptions = {}) {
  assertTaskRunnableOrHeading(ctx, t, 'A heading has no status and cannot be completed.', true);
  if (t.task.status === 'Complete') return taskView(ctx, t);
  if (t.task.status === 'NotApplicable') {
    throw conflict('The task is marked not applicable. Clear not applicable (DELETE .../not-applicable) before completing it.');
  }
  const state = stateOf(ctx, t);
  const k = t.task.key.toLowerCase();
  if (state.haltedTasks.has(k)) {
    throw conflict(HALTED_COMPLETE_MESSAGE);
  }
  if (state.hiddenTasks.has(k)) {
    throw conflict('The task cannot be completed: a condition currently hides it. Change the answers that the condition depends on so that the task is shown.');
  }
  const missing = unansweredRequired(ctx, t, state);
  if (missing.length) {
    throw conflict(`The task cannot be completed yet: required fields are unanswered: ${missing.join(', ')}. Answer them through .../fields first.`);
  }
  const now = ctx.now();
  setTaskComplete(ctx.db, t.task, now, opts.onBehalfOf ?? ctx.actor.member.id);
  recordActivity(ctx, entry(t, 'task.completed', `${actorName(ctx)} completed the task.`));
  ctx.hooks.event?.(ctx, 'task_completed', { taskId: t.task.id });
  onTaskCompletionChanged(ctx, t, now);
  refresh(ctx, t);
  return taskView(ctx, reload(ctx, t));
}

/**
 * How a status step treats the checklist's status. `settle: false` leaves it for the caller's
 * next step (a legacy status set that passes through Incomplete, legacy 3).
 */
export interface StepOptions {
  settle?: boolean;
  /**
   * The member the task records as having completed it or marked it not applicable, when not
   * the key's own (legacy 4.2 `modifiedByUserID`); rights are still the key's.
   */
  onBehalfOf?: number;
}

/** DELETE .../complete: the task becomes Incomplete; harmless when it is not complete. */
export function uncompleteTask(ctx: Ctx, t: TaskTarget, opts: StepOptions = {}) {
  assertTaskRunnableOrHeading(ctx, t, 'A heading has no status.', false);
  if (t.task.status !== 'Complete') return taskView(ctx, t);
  setTaskUncompleted(ctx.db, t.task);
  recordActivity(ctx, entry(t, 'task.uncompleted', `${actorName(ctx)} marked the task as not complete.`));
  onTaskCompletionChanged(ctx, t, null);
  if (opts.settle !== false) refresh(ctx, t);
  return taskView(ctx, reload(ctx, t));
}

/** POST .../not-applicable: stamps a completion time, fires no task_completed (3). */
export function markNotApplicable(ctx: Ctx, t: TaskTarget, opts: StepOptions = {}) {
  assertTaskRunnableOrHeading(ctx, t, 'A heading has no status.', false);
  if (t.task.status === 'NotApplicable') return taskView(ctx, t);
  if (t.task.status === 'Complete') {
    throw conflict('The task is complete. Uncomplete it (DELETE .../complete) before marking it not applicable.');
  }
  const now = ctx.now();
  setTaskNotApplicable(ctx.db, t.task, now, opts.onBehalfOf ?? ctx.actor.member.id);
  recordActivity(ctx, entry(t, 'task.notApplicable', `${actorName(ctx)} marked the task not applicable.`));
  refresh(ctx, t);
  return taskView(ctx, reload(ctx, t));
}

/** DELETE .../not-applicable: the task becomes Incomplete; harmless when it is not marked. */
export function clearNotApplicable(ctx: Ctx, t: TaskTarget, opts: StepOptions = {}) {
  assertTaskRunnableOrHeading(ctx, t, 'A heading has no status.', false);
  if (t.task.status !== 'NotApplicable') return taskView(ctx, t);
  clearTaskNotApplicable(ctx.db, t.task);
  recordActivity(ctx, entry(t, 'task.notApplicableCleared', `${actorName(ctx)} cleared not applicable; the task is incomplete again.`));
  if (opts.settle !== false) refresh(ctx, t);
  return taskView(ctx, reload(ctx, t));
}

/** Read access first (a member who may not see the checklist learns nothing more), then heading, then write rights. */
function assertTaskRunnableOrHeading(ctx: Ctx, t: TaskTarget, why: string, completing: boolean): void {
  if (t.task.is_heading) {
    assertTaskReadable(ctx, t);
    refuseHeading(t, why);
  }
  assertTaskRunnable(ctx, t, completing);
}
