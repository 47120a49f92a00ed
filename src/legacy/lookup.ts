// Finding what legacy routes address by integer id (legacy spec 2: checklist id, task id),
// always within the acting workspace: another workspace's id is 404, like an unknown one.
import type { Ctx } from '../context';
import { ApiError, notFound } from '../errors';
import type { ChecklistRow } from '../domain/checklist-lookup';
import { assertTaskReadable } from '../domain/tasks/guard';
import { targetOf, type TaskTarget } from '../domain/tasks/target';
import { checklistOfWorkspace } from '../rows/checklists';
import { taskOfWorkspace } from '../rows/tasks';

/** The task target of a task row: domain/tasks/target.ts builds it, for v3 and legacy alike. */
export { targetOf };

export function checklistOfId(ctx: Ctx, id: number): ChecklistRow {
  const row = checklistOfWorkspace(ctx.db, ctx.workspace.id, id);
  if (!row) throw notFound('CHECKLIST_NOT_FOUND', `No checklist with id ${id} exists in this workspace.`);
  return row;
}

export function taskOfId(ctx: Ctx, id: number): TaskTarget {
  const task = taskOfWorkspace(ctx.db, ctx.workspace.id, id);
  if (!task) throw notFound('TASK_NOT_FOUND', `No task with id ${id} exists in this workspace.`);
  return targetOf(ctx, task);
}

/** Whether the actor may read the task (lists leave out what the actor may not see). */
export function canReadTask(ctx: Ctx, t: TaskTarget): boolean {
  try {
    assertTaskReadable(ctx, t);
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.status === 403) return false;
    throw e;
  }
}
