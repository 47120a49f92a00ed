// A task's own tags (spec v3 2.4 detail `tags`, 4.1 rule 5, 5.8: any key of the workspace may
// tag and untag). POST {tags: [...]} adds, DELETE ?name= removes; both answer {tags} in name order.
import type { Ctx } from '../../context';
import { actorName, recordActivity } from '../activity';
import { applyTags, removeTag } from '../tags/apply';
import { assertTaskReadable } from './guard';
import type { TaskTarget } from './target';
import { taskTags } from './views';

const where = (t: TaskTarget) => ({ checklistId: t.task.checklist_id ?? t.task.attached_checklist_id, taskId: t.task.id });

export function listTaskTags(ctx: Ctx, t: TaskTarget) {
  assertTaskReadable(ctx, t);
  return { tags: taskTags(ctx, t.task.id) };
}

export function addTaskTags(ctx: Ctx, t: TaskTarget, names: string[]) {
  const before = new Set(taskTags(ctx, t.task.id).map((n) => n.toLowerCase()));
  applyTags(ctx.db, ctx.workspace.id, 'task', t.task.id, names, ctx.now());
  const added = [...new Set(names.map((n) => n.trim()))].filter((n) => n && !before.has(n.toLowerCase()));
  if (added.length) recordActivity(ctx, { ...where(t), action: 'task.tagged', text: `${actorName(ctx)} tagged the task ${added.join(', ')}.`, data: { tags: added } });
  return { tags: taskTags(ctx, t.task.id) };
}

export function removeTaskTag(ctx: Ctx, t: TaskTarget, name: string) {
  if (removeTag(ctx.db, ctx.workspace.id, 'task', t.task.id, name)) {
    recordActivity(ctx, { ...where(t), action: 'task.untagged', text: `${actorName(ctx)} removed the tag ${name.trim()}.`, data: { tag: name.trim() } });
  }
  return { tags: taskTags(ctx, t.task.id) };
}
