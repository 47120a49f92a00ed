// The standalone task resource (spec v3 2.6 gap "fields of standalone task: not shown"):
// the task sizes of 2.4 built by the task area, plus what only a standalone task has
// (docs/checklists.md "Standalone tasks").
import type { Ctx } from '../../context';
import { iso } from '../../clock';
import { userRef } from '../users';
import { standaloneTaskUrl } from '../urls';
import type { TaskRow } from '../../rows/tasks';
import { EMPTY_STATE } from '../tasks/evaluate';
import { taskDetail, taskSummary } from '../tasks/views';
import type { TaskTarget } from '../tasks/target';

function extras(ctx: Ctx, task: TaskRow) {
  return {
    isStandalone: true as const,
    description: task.description ?? undefined,
    raisedBy: userRef(ctx.db, task.raised_by),
    createdDateTime: iso(task.created_at),
    url: standaloneTaskUrl(ctx, task.key),
  };
}

/** Task detail (2.4) of a standalone task: `checklist` is the attached checklist's reference, absent when unattached. */
export function standaloneDetail(ctx: Ctx, t: TaskTarget) {
  return { ...taskDetail(ctx, t, EMPTY_STATE), ...extras(ctx, t.task) };
}

/** Task summary (2.4) of a standalone task, for the attached-tasks list. */
export function standaloneSummary(ctx: Ctx, task: TaskRow) {
  return { ...taskSummary(ctx, task, EMPTY_STATE), ...extras(ctx, task) };
}
