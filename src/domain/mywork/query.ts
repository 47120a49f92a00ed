// The Tasks grid query (spec v3 4.6 list_my_work) as SQL: keyset-paged, never OFFSET.
// The grid is two disjoint sources, checklist tasks and standalone tasks, each queried with
// conditions its indexes serve (schema.sql version 6), then merged in the sort order; the
// cursor is the last row's (sort key, id), so every page costs the same however deep.
import type { Ctx } from '../../context';
import { readableChecklistsSql } from '../access/checklists';
import type { AssigneeFilter } from './assignee';
import { onlyMe } from './assignee';
import { STATUSES, type GridStatus, type Judge } from './status';
import { gridMemo, gridCount } from './grid-memo';
import { archivedChecklistIds, gridPositions, snoozedTaskIds } from '../../rows/my-work-grid';

export const SORT_FIELDS = ['dueDateTime', 'name', 'checklistName', 'templateName', 'commentCount'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

export interface GridQuery {
  statuses: GridStatus[];
  assignee: AssigneeFilter;
  /** Template ids: narrows checklist tasks only (4.6). */
  templateIds?: number[];
  /** How many checklists those templates have (chooses the plan, not the rows). */
  templateChecklists?: number;
  /** Checklist ids: their tasks and the standalone tasks attached to them. */
  checklistIds?: number[];
  includeStandalone: boolean;
  sort: { field: SortField; dir: 'asc' | 'desc' };
}

export type SortKey = number | string;
export interface Position {
  k: SortKey;
  i: number;
}


/** Beyond every due date (ms): "no due date" sorts last ascending. */
const NO_DUE_ASC = 9000000000000000;
/** Before every due date: "no due date" sorts last descending. */
const NO_DUE_DESC = -1;

const ROW_CHECKLIST = 'coalesce(t.checklist_id, t.attached_checklist_id)';

/** The SQL of a sort key, never NULL, so rows without a value sort last in both directions. */
export function sortKeySql(field: SortField, dir: 'asc' | 'desc'): { sql: string; text: boolean } {
  const missingText = dir === 'asc' ? `char(1114111)` : `''`;
  switch (field) {
    case 'dueDateTime':
      // Written exactly as the expressions of the tasks_grid_due_* indexes.
      return { sql: dir === 'asc' ? `coalesce(t.due_at, ${NO_DUE_ASC})` : `coalesce(t.due_at, ${NO_DUE_DESC})`, text: false };
    case 'name':
      return { sql: `t.name`, text: true };
    case 'checklistName':
      return { sql: `coalesce((SELECT sc.name FROM checklists sc WHERE sc.id = ${ROW_CHECKLIST}), ${missingText})`, text: true };
    case 'templateName':
      return {
        sql: `coalesce((SELECT sv.name FROM checklists sc JOIN template_versions sv ON sv.template_id = sc.template_id AND sv.version = sc.template_version WHERE sc.id = ${ROW_CHECKLIST}), ${missingText})`,
        text: true,
      };
    case 'commentCount':
      return { sql: `(SELECT count(*) FROM comments cm WHERE cm.task_id = t.id)`, text: false };
  }
}

/** SQLite's NOCASE order (ASCII letters folded, then UTF-8 bytes), so merged sources agree with SQL. */
export function compareKeys(a: SortKey, b: SortKey): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const fold = (s: string) => Buffer.from(String(s).replace(/[A-Z]/g, (c) => c.toLowerCase()), 'utf8');
  return Buffer.compare(fold(String(a)), fold(String(b)));
}

const OPEN = `t.is_heading = 0 AND coalesce(t.status, 'Incomplete') = 'Incomplete'`;
const OPEN_STATUSES = new Set<GridStatus>(['Incomplete', 'DueInFuture', 'DueToday', 'Overdue']);

/** WHERE terms and their parameters, in order. Values that change per request (now, the member)
 * are parameters so the memoized statement is reused; id lists are part of the query itself. */
class Built {
  readonly where: string[] = [];
  readonly args: unknown[] = [];
  add(sql: string, ...args: unknown[]): void {
    this.where.push(sql);
    this.args.push(...args);
  }
}

/** Conditions of the status filter (status.ts `judge` as SQL). */
function statusConditions(ctx: Ctx, q: GridQuery, j: GridEnv, out: Built): void {
  // Every status: every task but headings (a status is open, Complete or NotApplicable), with
  // no term that depends on the instant, so the statement and its count are the same each time.
  if (STATUSES.every((s) => q.statuses.includes(s))) return out.add('t.is_heading = 0');
  const me = ctx.actor.member.id;
  const snoozed = `t.id IN (SELECT task_id FROM snoozes WHERE member_id = ? AND until_at > ?)`;
  const args: unknown[] = [];
  const open = q.statuses.filter((s) => OPEN_STATUSES.has(s));
  const due: string[] = [];
  const dueArgs: unknown[] = [];
  if (open.length < 4) {
    // The three dated statuses are adjacent ranges of the due date: neighbours are written as one
    // range, so the common "every dated open task" does not depend on the instant (and its
    // count can be remembered, grid-memo.ts).
    const over = open.includes('Overdue');
    const today = open.includes('DueToday');
    const future = open.includes('DueInFuture');
    if (open.includes('Incomplete')) due.push('t.due_at IS NULL');
    if (over && today && future) due.push('t.due_at IS NOT NULL');
    else if (over && today) { due.push('t.due_at <= ?'); dueArgs.push(j.endOfDay); }
    else if (today && future) { due.push('t.due_at >= ?'); dueArgs.push(j.now); }
    else {
      if (over) { due.push('t.due_at < ?'); dueArgs.push(j.now); }
      if (today) { due.push('(t.due_at >= ? AND t.due_at <= ?)'); dueArgs.push(j.now, j.endOfDay); }
      if (future) { due.push('t.due_at > ?'); dueArgs.push(j.endOfDay); }
    }
  }
  const dueSql = due.length ? `(${due.join(' OR ')})` : undefined;
  const halted = q.statuses.includes('Halted');
  const closed = q.statuses.filter((s) => s === 'Complete' || s === 'NotApplicable');
  const parts: string[] = [];
  if (open.length && !halted && !q.statuses.includes('Snoozed') && !closed.length) {
    // The common case, flat so the partial due-date indexes apply (grid_halted = 0 is an equality).
    out.add(OPEN);
    out.add('t.grid_halted = 0');
    notIn(out, 't.id', j.snoozed, '(SELECT task_id FROM snoozes WHERE member_id = ? AND until_at > ?)', me, j.now);
    if (dueSql) out.add(dueSql, ...dueArgs);
    return;
  }
  if (open.length || halted) {
    const inner: string[] = [];
    if (open.length) inner.push(dueSql ? `(t.grid_halted = 0 AND ${dueSql})` : 't.grid_halted = 0');
    if (halted) inner.push('t.grid_halted = 1');
    parts.push(`(${OPEN} AND NOT ${snoozed} AND (${inner.join(' OR ')}))`);
    args.push(me, j.now, ...(open.length && dueSql ? dueArgs : []));
  }
  if (q.statuses.includes('Snoozed')) {
    parts.push(`(${OPEN} AND ${snoozed})`);
    args.push(me, j.now);
  }
  if (closed.length) parts.push(`(t.is_heading = 0 AND t.status IN (${closed.map((s) => `'${s}'`).join(', ')}))`);
  out.add(parts.length ? `(${parts.join(' OR ')})` : '0', ...args);
}

/** Whether every row the statuses admit is open: then assignments can be read from grid_open_assignments. */
const onlyOpenRows = (q: GridQuery) => q.statuses.every((s) => s !== 'Complete' && s !== 'NotApplicable');

function assigneeConditions(ctx: Ctx, q: GridQuery, out: Built): void {
  if (q.assignee === 'all') return;
  const table = onlyOpenRows(q) ? 'grid_open_assignments' : 'task_assignees';
  const terms: string[] = [];
  const args: unknown[] = [];
  for (const term of q.assignee) {
    if (term.kind === 'unassigned') terms.push('NOT EXISTS (SELECT 1 FROM task_assignees ua WHERE ua.task_id = t.id)');
    else if (term.kind === 'group') terms.push(`t.id IN (SELECT task_id FROM ${table} WHERE assignee_type = 'Group' AND assignee_id = ${term.id})`);
    else {
      // A member's work includes what is assigned to their groups (EMULATOR.md).
      const id = term.kind === 'me' ? ctx.actor.member.id : term.id;
      terms.push(
        `t.id IN (SELECT task_id FROM ${table} WHERE assignee_type = 'TeamMember' AND assignee_id = ?
                  UNION ALL SELECT task_id FROM ${table} WHERE assignee_type = 'Group' AND assignee_id IN (SELECT group_id FROM group_members WHERE member_id = ?))`,
      );
      args.push(id, id);
    }
  }
  out.add(terms.length === 1 ? terms[0] : `(${terms.join(' OR ')})`, ...args);
}

/** What the member may see (5.4; standalone rules of docs/tasks.md). Nothing for Administrators, or when they ask only for their own work. */
function visibilityConditions(ctx: Ctx, q: GridQuery, source: 'checklist' | 'standalone', out: Built): void {
  if (ctx.actor.isAdmin || onlyMe(q.assignee)) return;
  // The checklists the member may read, worked out once per statement (a CTE both sources use).
  const readableIds = '(SELECT id FROM readable)';
  if (source === 'checklist') {
    out.add(`t.checklist_id IN ${readableIds}`);
    return;
  }
  const me = ctx.actor.member.id;
  out.add(
    `(t.raised_by = ?
      OR t.id IN (SELECT task_id FROM task_assignees WHERE assignee_type = 'TeamMember' AND assignee_id = ?
                  UNION ALL SELECT task_id FROM task_assignees WHERE assignee_type = 'Group' AND assignee_id IN (SELECT group_id FROM group_members WHERE member_id = ?))
      OR t.attached_checklist_id IN ${readableIds})`,
    me, me, me,
  );
}

/** `WITH readable` (the checklists the member may read, 5.4) when the statement names it. */
function withReadable(ctx: Ctx, b: Built): { sql: string; args: unknown[] } {
  if (!b.where.some((w) => w.includes('FROM readable'))) return { sql: '', args: b.args };
  const readable = readableChecklistsSql(ctx)!;
  return {
    sql: `WITH readable(id) AS MATERIALIZED (SELECT id FROM checklists WHERE workspace_id = ? AND ${readable.sql}) `,
    args: [ctx.workspace.id, ...readable.args, ...b.args],
  };
}

/** What one request reads once: the judging instant, and the short lists its SQL names inline. */
export interface GridEnv extends Judge {
  /** Archived checklists of the workspace (their tasks are no rows); usually none. */
  archived: number[];
  /** Tasks the member has snoozed until after now; usually few. */
  snoozed: number[];
}

const INLINE_MAX = 500;

export function gridEnv(ctx: Ctx, j: Judge): GridEnv {
  return { ...j, archived: archivedChecklistIds(ctx.db, ctx.workspace.id, INLINE_MAX + 1), snoozed: snoozedTaskIds(ctx.db, ctx.actor.member.id, j.now, INLINE_MAX + 1) };
}

/** `NOT IN` a short list written out (an empty list is no condition), or the subquery when long. */
function notIn(out: Built, expr: string, ids: number[], subquery: string, ...args: unknown[]): void {
  if (ids.length === 0) return;
  if (ids.length <= INLINE_MAX) out.add(`${expr} NOT IN (${ids.join(', ')})`);
  else out.add(`${expr} NOT IN ${subquery}`, ...args);
}

type Source = 'checklist' | 'standalone' | 'both';

function sourceConditions(ctx: Ctx, q: GridQuery, source: 'checklist' | 'standalone'): Built {
  const out = new Built();
  if (source === 'checklist') {
    out.add('t.checklist_id IS NOT NULL');
    if (q.templateIds) {
      // A template with many checklists: read in sort order through the due-date index and test
      // each row (a page stops early); with few, drive the query from its checklists.
      const lead = q.templateChecklists !== undefined && q.templateChecklists > 1000 ? '+' : '';
      out.add(`${lead}t.checklist_id IN (SELECT id FROM checklists WHERE template_id IN (${q.templateIds.join(', ')}))`);
    }
    if (q.checklistIds) out.add(`t.checklist_id IN (${q.checklistIds.join(', ')})`);
  } else {
    out.add('t.checklist_id IS NULL');
    if (q.checklistIds) out.add(`t.attached_checklist_id IN (${q.checklistIds.join(', ')})`);
  }
  visibilityConditions(ctx, q, source, out);
  return out;
}

/** How archived checklists are treated: left out (rows), only them (a count to subtract), or not looked at. */
type Archived = 'exclude' | 'only' | 'ignore';

function build(ctx: Ctx, q: GridQuery, env: GridEnv, source: Source, archived: Archived = 'exclude'): Built {
  const out = new Built();
  const ws = ctx.workspace.id;
  out.add('t.workspace_id = ?', ws);
  if (source === 'both' && q.includeStandalone) {
    const c = sourceConditions(ctx, q, 'checklist');
    const st = sourceConditions(ctx, q, 'standalone');
    const only = (b: Built) => b.where.length === 1; // nothing beyond the source's own test
    if (!(only(c) && only(st))) out.add(`((${c.where.join(' AND ')}) OR (${st.where.join(' AND ')}))`, ...c.args, ...st.args);
  } else {
    const b = sourceConditions(ctx, q, source === 'standalone' ? 'standalone' : 'checklist');
    out.add(b.where.join(' AND '), ...b.args);
  }
  const archivedIds = '(SELECT id FROM checklists WHERE workspace_id = ? AND is_archived = 1)';
  if (archived === 'exclude') notIn(out, 'coalesce(t.checklist_id, t.attached_checklist_id, 0)', env.archived, archivedIds, ws);
  if (archived === 'only') {
    out.add(
      `(t.checklist_id IN ${env.archived.length <= INLINE_MAX ? `(${env.archived.join(', ')})` : archivedIds} OR t.attached_checklist_id IN ${env.archived.length <= INLINE_MAX ? `(${env.archived.join(', ')})` : archivedIds})`,
      ...(env.archived.length <= INLINE_MAX ? [] : [ws, ws]),
    );
  }
  statusConditions(ctx, q, env, out);
  assigneeConditions(ctx, q, out);
  return out;
}

/** Whether the query narrows by template or checklist: then each source is counted and paged with its own index. */
const narrowed = (q: GridQuery) => q.templateIds !== undefined || q.checklistIds !== undefined;
const split = (q: GridQuery): Source[] => (q.includeStandalone ? ['checklist', 'standalone'] : ['checklist']);

/**
 * Rows admitted in all. Counted over the covering indexes with no test the index cannot
 * answer: the rows of archived checklists (usually none, or a few) are counted on their own,
 * through the checklist index, and taken away.
 */
function count(ctx: Ctx, query: GridQuery, env: GridEnv, source: Source): number {
  // A count reads every row anyway: driving it from the template's checklists is the cheaper plan.
  const q = { ...query, templateChecklists: undefined };
  const run = (b: Built) => {
    const w = withReadable(ctx, b);
    return gridCount(ctx.db, `${w.sql}SELECT count(*) AS n FROM tasks t WHERE ${b.where.join(' AND ')}`, w.args);
  };
  if (env.archived.length === 0) return run(build(ctx, q, env, source, 'ignore'));
  return run(build(ctx, q, env, source, 'ignore')) - run(build(ctx, q, env, source, 'only'));
}

function positions(ctx: Ctx, q: GridQuery, env: GridEnv, source: Source, after: Position | undefined, limit: number | undefined): Position[] {
  const key = sortKeySql(q.sort.field, q.sort.dir);
  const coll = key.text ? ' COLLATE NOCASE' : '';
  const dir = q.sort.dir === 'asc' ? 'ASC' : 'DESC';
  const b = build(ctx, q, env, source);
  if (after) b.add(`(${key.sql}${coll}, t.id) ${q.sort.dir === 'asc' ? '>' : '<'} (?, ?)`, after.k, after.i);
  const w = withReadable(ctx, b);
  const sql = `${w.sql}SELECT ${key.sql} AS k, t.id AS i FROM tasks t WHERE ${b.where.join(' AND ')} ORDER BY ${key.sql}${coll} ${dir}, t.id ${dir}${limit === undefined ? '' : ` LIMIT ${limit}`}`;
  // A page (LIMIT) is small, so it is remembered until the database changes; a whole walk is not kept.
  return limit === undefined ? gridPositions(ctx.db, sql, w.args) : gridMemo(ctx.db, `positions\n${sql}\n${JSON.stringify(w.args)}`, () => gridPositions(ctx.db, sql, w.args));
}

const order = (q: GridQuery) => {
  const sign = q.sort.dir === 'asc' ? 1 : -1;
  return (a: Position, b: Position) => sign * (compareKeys(a.k, b.k) || a.i - b.i);
};

/**
 * One page (up to `limit` rows after `after`, in the sort order) and the total.
 * Someone's work (any assignee filter but all) is a few thousand rows reached through
 * grid_open_assignments: read once, counted and cut in memory. Everyone's work (assignee=all)
 * is read in index order with LIMIT and counted over the covering indexes; narrowed by template
 * or checklist, each source separately, so each uses its own index.
 */
export function gridPage(ctx: Ctx, q: GridQuery, env: GridEnv, after: Position | undefined, limit: number): { rows: Position[]; total: number } {
  if (q.assignee !== 'all') {
    const all = positions(ctx, q, env, 'both', undefined, undefined);
    const cmp = order(q);
    const start = after ? all.findIndex((p) => cmp(p, { k: after.k, i: after.i }) > 0) : 0;
    return { rows: start < 0 ? [] : all.slice(start, start + limit), total: all.length };
  }
  if (!narrowed(q)) return { rows: positions(ctx, q, env, 'both', after, limit), total: count(ctx, q, env, 'both') };
  const rows = split(q).flatMap((s) => positions(ctx, q, env, s, after, limit));
  const total = split(q).reduce((n, s) => n + count(ctx, q, env, s), 0);
  return { rows: rows.sort(order(q)).slice(0, limit), total };
}
