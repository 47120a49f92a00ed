// GET .../activity (spec v3 4.3, get_task_activity): who did what and when on one task,
// newest first, paged like every v3 list (4.1 rule 11).
import { activityOfTask } from '../../rows/activity';
import type { Ctx } from '../../context';
import { iso } from '../../clock';
import { paginate } from '../paging';
import { userRef } from '../users';
import { assertTaskReadable } from './guard';
import type { TaskTarget } from './target';

export function taskActivity(ctx: Ctx, t: TaskTarget, input: { after?: string; pageSize?: number }) {
  assertTaskReadable(ctx, t);
  const rows = activityOfTask(ctx.db, t.task.id);
  const pageSize = input.pageSize ?? 50;
  return paginate(rows, pageSize, input.after, ['task-activity', t.task.id, pageSize], (r) => ({
    id: r.id,
    action: r.action,
    text: r.text,
    createdDateTime: iso(r.created_at),
    createdBy: userRef(ctx.db, r.member_id),
    details: r.data ? (JSON.parse(r.data) as Record<string, unknown>) : undefined,
  }));
}
