// Due dates (spec v3 2.4 dueDateTime, issue 5 item 6): from the template's rules when the
// checklist starts (checklists/start.ts) and as their anchors change (a task's completion, a
// Date field's answer), unless set by hand; set and cleared by hand through .../due-date.
import { setManualDue, setRuleDueOfTask } from '../../rows/tasks';
import type { Ctx } from '../../context';
import { actorName, formatInZone, recordActivity } from '../activity';
import type { DocTask, TemplateDocument } from '../../rows/template-document';
import { assertCanAssignOrDate } from '../access/checklists';
import { assertTaskReadable, refuseHeading } from './guard';
import { reload, type TaskTarget } from './target';
import { taskView } from './views';
import { DAY_MS, HOUR_MS } from '../../clock';

const offsetOf = (r: NonNullable<DocTask['dueDate']>) => (r.offsetDays ?? 0) * DAY_MS + (r.offsetHours ?? 0) * HOUR_MS;

function refMatches(doc: TemplateDocument, ref: string | undefined, key: string, kind: 'task' | 'field'): boolean {
  if (!ref) return false;
  const k = key.toLowerCase();
  if (ref.toLowerCase() === k) return true;
  if (kind === 'task') return doc.tasks.some((t) => t.ref === ref && t.id?.toLowerCase() === k);
  return doc.tasks.some((t) => (t.fields ?? []).some((f) => f.ref === ref && f.id?.toLowerCase() === k));
}

function setRuleDue(ctx: Ctx, checklistId: number, doc: TemplateDocument, pick: (t: DocTask) => boolean, dueAt: (t: DocTask) => number | null): void {
  for (const t of doc.tasks) if (t.id && t.dueDate && pick(t)) setRuleDueOfTask(ctx.db, checklistId, t.id, dueAt(t));
}

/** A task's completion moved: re-date the tasks whose rule is relative to it. */
export function onTaskCompletionChanged(ctx: Ctx, t: TaskTarget, completedAt: number | null): void {
  if (!t.doc || t.task.checklist_id === null) return;
  const doc = t.doc;
  setRuleDue(
    ctx,
    t.task.checklist_id,
    doc,
    (d) => d.dueDate!.relativeTo === 'taskCompletion' && refMatches(doc, d.dueDate!.task, t.task.key, 'task'),
    (d) => (completedAt === null ? null : completedAt + offsetOf(d.dueDate!)),
  );
}

/** A Date field's answer changed: re-date the tasks whose rule is relative to it. */
export function onDateFieldChanged(ctx: Ctx, t: TaskTarget, fieldKey: string, value: unknown): void {
  if (!t.doc || t.task.checklist_id === null) return;
  const doc = t.doc;
  const anchor = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value) : NaN;
  setRuleDue(
    ctx,
    t.task.checklist_id,
    doc,
    (d) => d.dueDate!.relativeTo === 'dateField' && refMatches(doc, d.dueDate!.field, fieldKey, 'field'),
    (d) => (Number.isNaN(anchor) ? null : anchor + offsetOf(d.dueDate!)),
  );
}

export function readDueDate(ctx: Ctx, t: TaskTarget) {
  assertTaskReadable(ctx, t);
  return { dueDateTime: t.task.due_at === null ? undefined : new Date(t.task.due_at).toISOString() };
}

/** PUT .../due-date {dueDateTime} (already an instant: the operation's input schema parsed it): sets by hand (rules no longer move it). Answers the task. */
export function setDueDate(ctx: Ctx, t: TaskTarget, ms: number) {
  assertTaskReadable(ctx, t);
  refuseHeading(t, 'A heading has no due date.');
  assertCanAssignOrDate(ctx, t.task);
  if (t.task.due_at !== ms || !t.task.due_is_manual) {
    setManualDue(ctx.db, t.task.id, ms);
    recordActivity(ctx, {
      checklistId: t.task.checklist_id ?? t.task.attached_checklist_id,
      taskId: t.task.id,
      action: 'task.dueDateSet',
      text: `${actorName(ctx)} set the due date to ${formatInZone(ctx, ms)}.`,
      data: { dueDateTime: new Date(ms).toISOString(), timeZone: ctx.timeZone },
    });
  }
  return taskView(ctx, reload(ctx, t));
}

/** DELETE .../due-date: clears (rules no longer move it until set again). Answers the task. */
export function clearDueDate(ctx: Ctx, t: TaskTarget) {
  assertTaskReadable(ctx, t);
  refuseHeading(t, 'A heading has no due date.');
  assertCanAssignOrDate(ctx, t.task);
  if (t.task.due_at !== null) {
    setManualDue(ctx.db, t.task.id, null);
    recordActivity(ctx, {
      checklistId: t.task.checklist_id ?? t.task.attached_checklist_id,
      taskId: t.task.id,
      action: 'task.dueDateCleared',
      text: `${actorName(ctx)} cleared the due date (it was ${formatInZone(ctx, t.task.due_at)}).`,
      data: { previousDueDateTime: new Date(t.task.due_at).toISOString(), timeZone: ctx.timeZone },
    });
  }
  return taskView(ctx, reload(ctx, t));
}
