// A Tasks grid row (spec v3 2.6 work item) for the ids of one page: every field, built with
// the task area's own helpers so a row says what get_task says.
import type { Ctx } from '../../context';
import { iso } from '../../clock';
import { checklistAccess, keptOutByExclusive, memberGroupIds } from '../access/checklists';
import { checklistById, checklistReference, type ChecklistRow } from '../checklists/lookup';
import { assigneesOf, taskTags } from '../tasks/views';
import type { TaskRow } from '../tasks/rows';
import { checklistTaskUrl, standaloneTaskUrl } from '../urls';
import { judge, type Judge } from './status';

type GridTaskRow = TaskRow & { grid_halted: number };

export function workItems(ctx: Ctx, ids: number[], j: Judge) {
  const checklists = new Map<number, ChecklistRow | undefined>();
  const refs = new Map<number, ReturnType<typeof checklistReference>>();
  const access = new Map<number, ReturnType<typeof checklistAccess>>();
  const groups = new Set(memberGroupIds(ctx));
  const me = ctx.actor.member.id;
  const checklistOf = (id: number) => {
    if (!checklists.has(id)) checklists.set(id, checklistById(ctx, id));
    return checklists.get(id);
  };
  return ids.map((id) => {
    const t = ctx.db.prepare<[number], GridTaskRow>('SELECT * FROM tasks WHERE id = ?').get(id)!;
    const standalone = t.checklist_id === null;
    const cid = t.checklist_id ?? t.attached_checklist_id;
    const checklist = cid === null ? undefined : checklistOf(cid);
    if (checklist && !refs.has(checklist.id)) refs.set(checklist.id, checklistReference(ctx, checklist));
    const snooze = ctx.db.prepare<[number, number], { until_at: number }>('SELECT until_at FROM snoozes WHERE member_id = ? AND task_id = ?').get(me, t.id);
    const snoozedUntil = snooze && snooze.until_at > j.now ? snooze.until_at : undefined;
    const assignees = assigneesOf(ctx, t.id);
    const mine = assignees.some((a) => (a.type === 'TeamMember' ? a.id === me : groups.has(a.id)));
    const comments = ctx.db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM comments WHERE task_id = ?').get(t.id)!.n;
    const status = judge({ ...t, snoozedUntil }, j);
    return {
      key: t.key,
      name: t.name,
      status,
      isStandalone: standalone,
      assignees,
      isAssignedExclusively: t.is_assigned_exclusively === 1,
      isAssignedToActor: mine,
      canActorAccess: canAccess(ctx, t, checklist, mine, access),
      tags: taskTags(ctx, t.id),
      commentCount: comments,
      url: standalone || !checklist ? standaloneTaskUrl(ctx, t.key) : checklistTaskUrl(ctx, checklist.key, t.key),
      dueDateTime: iso(t.due_at),
      completedDateTime: t.status === 'Complete' ? iso(t.completed_at) : undefined,
      notApplicableDateTime: t.status === 'NotApplicable' ? iso(t.not_applicable_at) : undefined,
      snoozedUntilDateTime: iso(snoozedUntil),
      checklist: checklist ? refs.get(checklist.id) : undefined,
    };
  });
}

/**
 * canActorAccess (2.6: false means visible but every write is refused): the member may change
 * the task's status (5.8 row 1) and no exclusive assignment keeps them out (2.4).
 */
function canAccess(ctx: Ctx, t: TaskRow, checklist: ChecklistRow | undefined, mine: boolean, cache: Map<number, ReturnType<typeof checklistAccess>>): boolean {
  if (keptOutByExclusive(ctx, t)) return false;
  if (ctx.actor.isAdmin) return true;
  // A task assigned to the member: they may run its checklist (5.8 row 1) or it (standalone).
  if (mine) return true;
  if (t.checklist_id === null && t.raised_by === ctx.actor.member.id) return true;
  if (!checklist) return false;
  if (!cache.has(checklist.id)) cache.set(checklist.id, checklistAccess(ctx, checklist));
  return cache.get(checklist.id)!.canRun;
}
