// Tasks grid rows (spec v3 2.6 work item) for the ids of one page: every fact read for the
// whole page in one statement (src/rows/my-work-grid.ts), ordered as the task area orders
// them (assignees groups first then by name, tags by name), so a row says what get_task says.
import type { Ctx } from '../../context';
import { iso } from '../../clock';
import { checklistAccess, keptOutByExclusive, memberGroupIds } from '../access/checklists';
import { templateRefOf, type TemplateRefOfChecklist } from '../checklist-lookup';
import { compareText } from '../paging';
import { fullName } from '../../rows/people';
import { gridFactsOfTasks, type GridFactsRow } from '../../rows/my-work-grid';
import { checklistTaskUrl, checklistUrl, standaloneTaskUrl } from '../urls';
import { judge, type Judge } from './status';
import { gridMemo } from './grid-memo';

export function workItems(ctx: Ctx, ids: number[], j: Judge) {
  if (ids.length === 0) return [];
  const me = ctx.actor.member.id;
  const groups = new Set(memberGroupIds(ctx));
  const facts = gridMemo(ctx.db, `facts\n${me}\n${ids.join(',')}`, () => gridFactsOfTasks(ctx.db, ids, me));
  const refs = new Map<number, { key: string; name: string; url: string; template: TemplateRefOfChecklist }>();
  const access = new Map<number, ReturnType<typeof checklistAccess>>();

  return ids.map((id) => {
    const t = facts.get(id)!;
    const standalone = t.checklist_id === null;
    const checklist = t.checklist ?? undefined;
    if (checklist && !refs.has(checklist.id)) {
      // The checklist reference of 2.4, read with the row.
      refs.set(checklist.id, { key: checklist.key, name: checklist.name, url: checklistUrl(ctx, checklist.key), template: templateRefOf(ctx, t.template!, checklist.template_version) });
    }
    const until = t.snoozedUntil ?? undefined;
    const snoozedUntil = until !== undefined && until > j.now ? until : undefined;
    const who = t.assignees
      .map((a) => (a.type === 'Group' ? { id: a.id, type: 'Group' as const, name: a.groupName ?? undefined } : { id: a.id, type: 'TeamMember' as const, name: fullName({ first_name: a.firstName, last_name: a.lastName }) }))
      .sort((a, b) => (a.type === b.type ? 0 : a.type === 'Group' ? -1 : 1) || compareText(a.name ?? '', b.name ?? '') || a.id - b.id);
    const mine = who.some((a) => (a.type === 'TeamMember' ? a.id === me : groups.has(a.id)));
    return {
      key: t.key,
      name: t.name,
      status: judge({ ...t, snoozedUntil }, j),
      isStandalone: standalone,
      assignees: who,
      isAssignedExclusively: t.is_assigned_exclusively === 1,
      isAssignedToActor: mine,
      canActorAccess: canAccess(ctx, t, checklist, mine, access),
      tags: [...t.tags].sort(compareText),
      commentCount: t.commentCount,
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
function canAccess(ctx: Ctx, t: GridFactsRow, checklist: GridFactsRow['checklist'] | undefined, mine: boolean, cache: Map<number, ReturnType<typeof checklistAccess>>): boolean {
  if (keptOutByExclusive(ctx, t)) return false;
  if (ctx.actor.isAdmin) return true;
  // A task assigned to the member: they may run its checklist (5.8 row 1) or it (standalone).
  if (mine) return true;
  if (t.checklist_id === null && t.raised_by === ctx.actor.member.id) return true;
  if (!checklist) return false;
  if (!cache.has(checklist.id)) cache.set(checklist.id, checklistAccess(ctx, checklist));
  return cache.get(checklist.id)!.canRun;
}
