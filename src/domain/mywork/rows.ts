// Tasks grid rows (spec v3 2.6 work item) for the ids of one page: every field, read with one
// query per kind of fact for the whole page (not per row), ordered as the task area orders
// them (assignees groups first then by name, tags by name), so a row says what get_task says.
import type { Ctx } from '../../context';
import { iso } from '../../clock';
import { checklistAccess, keptOutByExclusive, memberGroupIds } from '../access/checklists';
import { checklistTemplateRef, type ChecklistRow } from '../checklist-lookup';
import { compareText } from '../paging';
import { fullName } from '../../rows/people';
import type { TaskRow } from '../tasks/rows';
import { checklistTaskUrl, checklistUrl, standaloneTaskUrl } from '../urls';
import { judge, type Judge } from './status';

type GridTaskRow = TaskRow & { grid_halted: number };
interface Assignee {
  id: number;
  type: 'TeamMember' | 'Group';
  name?: string;
}

/** Rows of `sql` (one `?` list placeholder `(?)` expanded) grouped by their `task_id`. */
function byTask<R extends { task_id: number }>(ctx: Ctx, sql: string, ids: number[], ...before: unknown[]): Map<number, R[]> {
  const rows = ctx.db.prepare<unknown[], R>(sql.replace('(?)', `(${ids.map(() => '?').join(', ')})`)).all(...before, ...ids);
  const out = new Map<number, R[]>();
  for (const r of rows) {
    const list = out.get(r.task_id);
    if (list) list.push(r);
    else out.set(r.task_id, [r]);
  }
  return out;
}

export function workItems(ctx: Ctx, ids: number[], j: Judge) {
  if (ids.length === 0) return [];
  const me = ctx.actor.member.id;
  const groups = new Set(memberGroupIds(ctx));
  const tasks = byTask<GridTaskRow & { task_id: number }>(ctx, 'SELECT *, id AS task_id FROM tasks WHERE id IN (?)', ids);
  const assignees = byTask<{ task_id: number; assignee_type: 'TeamMember' | 'Group'; assignee_id: number; group_name: string | null; first_name: string | null; last_name: string | null }>(
    ctx,
    `SELECT a.task_id, a.assignee_type, a.assignee_id, g.name AS group_name, m.first_name, m.last_name
       FROM task_assignees a
       LEFT JOIN groups g ON a.assignee_type = 'Group' AND g.id = a.assignee_id
       LEFT JOIN members m ON a.assignee_type = 'TeamMember' AND m.id = a.assignee_id
      WHERE a.task_id IN (?)`,
    ids,
  );
  const tags = byTask<{ task_id: number; name: string }>(
    ctx,
    "SELECT a.target_id AS task_id, t.name FROM tag_assignments a JOIN tags t ON t.id = a.tag_id WHERE a.target_type = 'task' AND a.target_id IN (?)",
    ids,
  );
  const comments = byTask<{ task_id: number; n: number }>(ctx, 'SELECT task_id, count(*) AS n FROM comments WHERE task_id IN (?) GROUP BY task_id', ids);
  const snoozes = byTask<{ task_id: number; until_at: number }>(ctx, 'SELECT task_id, until_at FROM snoozes WHERE member_id = ? AND task_id IN (?)', ids, me);
  const checklistIds = [...new Set([...tasks.values()].map(([t]) => t.checklist_id ?? t.attached_checklist_id).filter((c): c is number => c !== null))];
  const checklists = new Map<number, ChecklistRow>();
  if (checklistIds.length) {
    for (const c of ctx.db.prepare<number[], ChecklistRow>(`SELECT * FROM checklists WHERE id IN (${checklistIds.map(() => '?').join(', ')})`).all(...checklistIds)) checklists.set(c.id, c);
  }
  // The checklist reference of 2.4; a page shares few template versions, each read once.
  const templates = new Map<string, ReturnType<typeof checklistTemplateRef>>();
  const refs = new Map<number, { key: string; name: string; url: string; template: ReturnType<typeof checklistTemplateRef> }>();
  const reference = (c: ChecklistRow) => {
    const tv = `${c.template_id}:${c.template_version}`;
    if (!templates.has(tv)) templates.set(tv, checklistTemplateRef(ctx, c));
    return { key: c.key, name: c.name, url: checklistUrl(ctx, c.key), template: templates.get(tv)! };
  };
  const access = new Map<number, ReturnType<typeof checklistAccess>>();

  return ids.map((id) => {
    const t = tasks.get(id)![0];
    const standalone = t.checklist_id === null;
    const cid = t.checklist_id ?? t.attached_checklist_id;
    const checklist = cid === null ? undefined : checklists.get(cid);
    if (checklist && !refs.has(checklist.id)) refs.set(checklist.id, reference(checklist));
    const until = snoozes.get(id)?.[0]?.until_at;
    const snoozedUntil = until !== undefined && until > j.now ? until : undefined;
    const who: Assignee[] = (assignees.get(id) ?? [])
      .map((a) =>
        a.assignee_type === 'Group'
          ? { id: a.assignee_id, type: 'Group' as const, name: a.group_name ?? undefined }
          : { id: a.assignee_id, type: 'TeamMember' as const, name: fullName(a) },
      )
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
      tags: (tags.get(id) ?? []).map((r) => r.name).sort(compareText),
      commentCount: comments.get(id)?.[0]?.n ?? 0,
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
