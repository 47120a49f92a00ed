// GET /v3/checklists/{key}/attached-tasks (spec v3 4.3 intro): the standalone tasks attached to a
// checklist, which its task routes do not reach (404 there). Readable by whoever may open the checklist (5.4).
import type { Ctx } from '../../context';
import { assertCanRead } from '../access/checklists';
import { findChecklist } from '../checklist-lookup';
import { tasksAttachedTo } from '../../rows/tasks';
import { standaloneSummary } from './view';

export function listAttachedTasks(ctx: Ctx, checklistKey: string) {
  const checklist = findChecklist(ctx, checklistKey);
  assertCanRead(ctx, checklist);
  const rows = tasksAttachedTo(ctx.db, checklist.id);
  return { tasks: rows.map((t) => standaloneSummary(ctx, t)) };
}
