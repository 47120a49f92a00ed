// The Tasks grid read model (spec v3 2.6 work item): every fact a page of rows shows, read for
// the whole page in one statement. SQLite writes the page as one JSON text that JSON.parse
// reads back: measured on the demo fixture, building row objects column by column in the
// driver cost four to five times as much as the statement itself (docs/performance.md).
import type { Db } from '../store/open';
import type { RowOf } from '../store/columns';
import type { tasksTable } from '../store/tables/tasks';

/** One assignee as stored, with the name of the group or member it names (absent when gone). */
export interface GridAssigneeRow {
  type: 'TeamMember' | 'Group';
  id: number;
  groupName: string | null;
  firstName: string | null;
  lastName: string | null;
}

/** What one Tasks grid row needs: the task, its assignees, tags, comments, the member's snooze, and its checklist with the template version it runs. */
export type GridFactsRow = Pick<RowOf<typeof tasksTable.columns>, (typeof TASK_COLUMNS)[number]> & GridJoined;

/** What the page joins to a task's columns. */
interface GridJoined {
  assignees: GridAssigneeRow[];
  /** Tag names, unordered. */
  tags: string[];
  commentCount: number;
  /** The member's snooze end on this task, whether or not it is still in force. */
  snoozedUntil: number | null;
  /** The checklist of the task (its own, or the one a standalone task is attached to). */
  checklist: { id: number; key: string; name: string; template_id: number; template_version: number } | null;
  /** The template version that checklist runs: the template's key, the version's name, description and publication. */
  template: { key: string; name: string | null; description: string | null; created_at: number | null } | null;
}

/** The task's columns a grid row reads (store/tables/tasks.ts). */
const TASK_COLUMNS = [
  'id', 'key', 'name', 'status', 'is_heading', 'due_at', 'grid_halted', 'checklist_id', 'attached_checklist_id',
  'is_assigned_exclusively', 'raised_by', 'completed_at', 'not_applicable_at',
] as const satisfies readonly (keyof typeof tasksTable.columns)[];

const PAGE_SQL = `SELECT json_group_array(json_array(
    ${TASK_COLUMNS.map((c) => `t.${c}`).join(', ')},
    json((SELECT json_group_array(json_array(a.assignee_type, a.assignee_id, g.name, m.first_name, m.last_name))
            FROM task_assignees a
            LEFT JOIN groups g ON a.assignee_type = 'Group' AND g.id = a.assignee_id
            LEFT JOIN members m ON a.assignee_type = 'TeamMember' AND m.id = a.assignee_id
           WHERE a.task_id = t.id)),
    json((SELECT json_group_array(tg.name) FROM tag_assignments ta JOIN tags tg ON tg.id = ta.tag_id
           WHERE ta.target_type = 'task' AND ta.target_id = t.id)),
    (SELECT count(*) FROM comments cm WHERE cm.task_id = t.id),
    (SELECT s.until_at FROM snoozes s WHERE s.member_id = ? AND s.task_id = t.id),
    c.id, c.key, c.name, c.template_id, c.template_version,
    tp.key, tv.name, tv.description, tv.created_at)) AS page
  FROM tasks t
  LEFT JOIN checklists c ON c.id = coalesce(t.checklist_id, t.attached_checklist_id)
  LEFT JOIN templates tp ON tp.id = c.template_id
  LEFT JOIN template_versions tv ON tv.template_id = c.template_id AND tv.version = c.template_version
 WHERE t.id IN (SELECT value FROM json_each(?))`;

type Raw = unknown[];

/** The facts of the tasks `ids` (any order; tasks that no longer exist are absent), keyed by task id, with `memberId`'s snoozes. */
export function gridFactsOfTasks(db: Db, ids: readonly number[], memberId: number): Map<number, GridFactsRow> {
  const out = new Map<number, GridFactsRow>();
  if (ids.length === 0) return out;
  const { page } = db.prepare<[number, string], { page: string }>(PAGE_SQL).get(memberId, JSON.stringify(ids))!;
  for (const r of JSON.parse(page) as Raw[]) {
    const row = {} as Record<string, unknown>;
    TASK_COLUMNS.forEach((c, i) => (row[c] = r[i]));
    let i = TASK_COLUMNS.length;
    const facts = row as unknown as GridFactsRow;
    facts.assignees = (r[i++] as Raw[]).map(([type, id, groupName, firstName, lastName]) => ({ type, id, groupName, firstName, lastName }) as GridAssigneeRow);
    facts.tags = r[i++] as string[];
    facts.commentCount = r[i++] as number;
    facts.snoozedUntil = r[i++] as number | null;
    const [cid, ckey, cname, templateId, templateVersion, tkey, tname, tdescription, tcreated] = r.slice(i);
    facts.checklist = cid === null ? null : { id: cid as number, key: ckey as string, name: cname as string, template_id: templateId as number, template_version: templateVersion as number };
    facts.template = tkey === null || tkey === undefined ? null : { key: tkey as string, name: tname as string | null, description: tdescription as string | null, created_at: tcreated as number | null };
    out.set(facts.id, facts);
  }
  return out;
}

// A LIMIT written out, not bound: measured, a bound LIMIT made these statements three times dearer.

/** The workspace's archived checklists (their tasks are no grid rows), at most `limit`. */
export function archivedChecklistIds(db: Db, workspaceId: number, limit: number): number[] {
  return db
    .prepare<[number], { id: number }>(`SELECT id FROM checklists WHERE workspace_id = ? AND is_archived = 1 LIMIT ${Math.trunc(limit)}`)
    .all(workspaceId)
    .map((r) => r.id);
}

/** Tasks the member has snoozed until after `now`, at most `limit`. */
export function snoozedTaskIds(db: Db, memberId: number, now: number, limit: number): number[] {
  return db
    .prepare<[number, number], { task_id: number }>(`SELECT task_id FROM snoozes WHERE member_id = ? AND until_at > ? LIMIT ${Math.trunc(limit)}`)
    .all(memberId, now)
    .map((r) => r.task_id);
}

/**
 * The earliest due date at or after `from` of an open task of the workspace that no stop halts:
 * the first instant a grid row's Overdue or DueToday can change as time passes (halted and
 * closed rows are judged without the time). Read on the grid's ascending index.
 */
export function nextOpenDue(db: Db, workspaceId: number, from: number): number | undefined {
  return (
    db
      .prepare<[number, number], { d: number | null }>(
        "SELECT min(coalesce(due_at, 9000000000000000)) AS d FROM tasks WHERE workspace_id = ? AND grid_halted = 0 AND coalesce(due_at, 9000000000000000) >= ? AND is_heading = 0 AND coalesce(status, 'Incomplete') = 'Incomplete'",
      )
      .get(workspaceId, from)!.d ?? undefined
  );
}

/** The earliest end after `from` of the member's snoozes. */
export function nextSnoozeEnd(db: Db, memberId: number, from: number): number | undefined {
  return db.prepare<[number, number], { u: number | null }>('SELECT min(until_at) AS u FROM snoozes WHERE member_id = ? AND until_at > ?').get(memberId, from)!.u ?? undefined;
}

/** A count(*) statement composed by the grid query (src/domain/mywork/query.ts). */
export function countOf(db: Db, sql: string, args: unknown[]): number {
  return db.prepare<unknown[], { n: number }>(sql).get(...args)!.n;
}

/** Positions (sort key `k`, task id `i`) of a statement composed by the grid query (src/domain/mywork/query.ts). */
export function gridPositions(db: Db, sql: string, args: unknown[]): { k: number | string; i: number }[] {
  return db.prepare<unknown[], { k: number | string; i: number }>(sql).all(...args);
}
