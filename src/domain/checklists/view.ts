// The checklist resource (spec v3 2.6 gap "the checklist resource's own fields: not shown";
// designed like the rest of v3 and documented in docs/checklists.md). One shape serves the
// list, search, create, get and patch answers.
import { taskStatusCounts } from '../../rows/checklists';
import { countTasksAttachedTo } from '../../rows/tasks';
import type { Ctx } from '../../context';
import { iso } from '../../clock';
import { userRef } from '../users';
import { checklistUrl, shareUrl } from '../urls';
import { checklistTemplateRef, type ChecklistRow } from '../checklist-lookup';
import { tagsOf } from '../../rows/tags';

/** The checklist's own tags by name, in name order. */
export function checklistTags(ctx: Ctx, checklistId: number): string[] {
  return tagsOf(ctx.db, 'checklist', checklistId).map((r) => r.name);
}

export interface TaskCounts {
  total: number;
  complete: number;
  notApplicable: number;
  incomplete: number;
}

/** Counts of the checklist's own tasks (headings and attached standalone tasks not counted). */
export function taskCounts(ctx: Ctx, checklistId: number): TaskCounts {
  const r = taskStatusCounts(ctx.db, checklistId);
  const complete = r.complete ?? 0;
  const notApplicable = r.na ?? 0;
  return { total: r.total, complete, notApplicable, incomplete: r.total - complete - notApplicable };
}

export function attachedTaskCount(ctx: Ctx, checklistId: number): number {
  return countTasksAttachedTo(ctx.db, checklistId);
}

export function checklistView(ctx: Ctx, row: ChecklistRow) {
  return {
    key: row.key,
    name: row.name,
    url: checklistUrl(ctx, row.key),
    status: row.status,
    template: checklistTemplateRef(ctx, row),
    version: row.template_version,
    createdBy: userRef(ctx.db, row.created_by),
    createdDateTime: iso(row.created_at),
    scheduledDateTime: iso(row.scheduled_at),
    startDateTime: iso(row.started_at),
    dueDateTime: iso(row.due_at),
    completedDateTime: row.status === 'Complete' ? iso(row.completed_at) : undefined,
    isArchived: row.is_archived === 1,
    isShared: row.share_token !== null,
    shareUrl: row.share_token !== null ? shareUrl(ctx, row.share_token) : undefined,
    tags: checklistTags(ctx, row.id),
    taskCounts: taskCounts(ctx, row.id),
    attachedTaskCount: attachedTaskCount(ctx, row.id),
  };
}
