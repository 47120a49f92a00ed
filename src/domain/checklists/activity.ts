// GET /v3/checklists/{key}/activity: the checklist's own activity feed (spec v3 4.4 records
// upgrade results "in the checklist's activity feed"; the spec shows no route for it, so it
// is designed like the task feed of 4.3: paged, newest first; docs/upgrades.md). Entries
// about one of its tasks carry `taskKey`.
import { activityOfChecklist } from '../../rows/activity';
import type { Ctx } from '../../context';
import { iso } from '../../clock';
import { paginate, cursorScope } from '../paging';
import { userRef } from '../users';
import { assertCanRead } from '../access/checklists';
import { findChecklist } from '../checklist-lookup';

export function checklistActivity(ctx: Ctx, input: { checklistKey: string; after?: string; pageSize?: number }) {
  const c = findChecklist(ctx, input.checklistKey);
  assertCanRead(ctx, c);
  const rows = activityOfChecklist(ctx.db, c.id);
  const pageSize = input.pageSize ?? 50;
  return paginate(rows, pageSize, input.after, [...cursorScope(ctx), 'checklist-activity', c.id, pageSize], (r) => ({
    id: r.id,
    action: r.action,
    text: r.text,
    taskKey: r.task_key ?? undefined,
    createdDateTime: iso(r.created_at)!,
    createdBy: userRef(ctx.db, r.member_id),
    details: r.data ? (JSON.parse(r.data) as Record<string, unknown>) : undefined,
  }));
}
