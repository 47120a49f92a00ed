// snooze_tasks and end_snooze_tasks (spec v3 3, 4.5, 4.6, 5.8): many tasks, one date, all or
// nothing, in the per-task snooze store (domain/tasks/snooze.ts). Personal; no activity.
import type { Ctx } from '../../context';
import { iso } from '../../clock';
import { notFound, validationError } from '../../errors';
import { findChecklist } from '../checklist-lookup';
import { assertTaskReadable } from '../tasks/guard';
import { findStandaloneTask, targetOf, type TaskTarget } from '../tasks/target';
import { deleteSnooze, putSnooze, snoozeUntil } from '../../rows/snoozes';
import { attachedTaskByKey, checklistTaskByKey } from '../../rows/tasks';

export const MAX_SNOOZE_TASKS = 200;

export interface TaskRef {
  taskKey: string;
  checklistKey?: string;
}

/**
 * One reference: `{taskKey, checklistKey}` names a checklist task or a standalone task attached
 * to that checklist; `{taskKey}` alone only an unattached standalone task.
 */
function resolve(ctx: Ctx, ref: TaskRef, i: number): TaskTarget {
  if (ref.checklistKey === undefined) {
    let t: TaskTarget;
    try {
      t = findStandaloneTask(ctx, ref.taskKey);
    } catch {
      throw notFound('TASK_NOT_FOUND', `tasks[${i}]: no standalone task with key ${ref.taskKey} exists in this workspace; a checklist task is named with its checklistKey.`);
    }
    if (t.checklist) {
      throw validationError(`tasks[${i}].checklistKey is required: standalone task ${ref.taskKey} is attached to checklist ${t.checklist.key}.`, `tasks[${i}].checklistKey`);
    }
    return t;
  }
  const checklist = findChecklist(ctx, ref.checklistKey);
  const own = checklistTaskByKey(ctx.db, checklist.id, ref.taskKey);
  if (own) return targetOf(ctx, own, checklist);
  const attached = attachedTaskByKey(ctx.db, checklist.id, ref.taskKey);
  if (attached) return targetOf(ctx, attached, checklist);
  throw notFound('TASK_NOT_FOUND', `tasks[${i}]: no task with key ${ref.taskKey} exists on checklist ${ref.checklistKey} (its own tasks or the standalone tasks attached to it).`);
}

/** Every reference resolved, repeats dropped (first kept): any failure refuses the whole call. */
function resolveAll(ctx: Ctx, refs: TaskRef[]): { t: TaskTarget; i: number }[] {
  const seen = new Set<number>();
  const out: { t: TaskTarget; i: number }[] = [];
  refs.forEach((r, i) => {
    const t = resolve(ctx, r, i);
    if (!seen.has(t.task.id)) { seen.add(t.task.id); out.push({ t, i }); }
  });
  return out;
}

function entry(ctx: Ctx, t: TaskTarget) {
  const until = snoozeUntil(ctx.db, ctx.actor.member.id, t.task.id);
  return {
    key: t.task.key,
    checklistKey: t.checklist?.key,
    name: t.task.name,
    isStandalone: t.standalone,
    isSnoozed: until !== undefined && until > ctx.now(),
  };
}

/** POST /v3/my-work/snooze: a future date, at most 200 tasks, headings and unseen checklists refused. */
export function snoozeTasks(ctx: Ctx, until: number, refs: TaskRef[]) {
  if (until <= ctx.now()) throw validationError('snoozedUntil must be in the future.', 'snoozedUntil');
  const targets = resolveAll(ctx, refs);
  targets.forEach(({ t, i }) => {
    if (t.task.is_heading) throw validationError(`tasks[${i}].taskKey names a heading: a heading has no status and cannot be snoozed.`, `tasks[${i}].taskKey`);
    assertTaskReadable(ctx, t);
  });
  for (const { t } of targets) putSnooze(ctx.db, ctx.actor.member.id, t.task.id, until);
  return { snoozedUntil: iso(until)!, tasks: targets.map(({ t }) => entry(ctx, t)) };
}

/** DELETE /v3/my-work/snooze: a task not snoozed is left as is; never refused for lost visibility (5.8). */
export function endSnoozeTasks(ctx: Ctx, refs: TaskRef[]) {
  const targets = resolveAll(ctx, refs);
  for (const { t } of targets) deleteSnooze(ctx.db, ctx.actor.member.id, t.task.id);
  return { tasks: targets.map(({ t }) => entry(ctx, t)) };
}
