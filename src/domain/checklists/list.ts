// GET /v3/checklists (spec v3 4.7, 5.3): the checklists the acting member could see in the app
// (a workspace key and Administrators see all), filtered, sorted and paged (4.1 rule 11).
// Filters beyond templateKey and status are ours (docs/checklists.md).
import type { Ctx } from '../../context';
import { notFound, validationError } from '../../errors';
import { compareText, decodeCursor, encodeCursor, paginate, parseSort, type Sort } from '../paging';
import { readableChecklists, readableChecklistsSql } from '../access/checklists';
import { checklistById, type ChecklistRow } from '../checklist-lookup';
import { checklistView } from './view';
import { checklistFilterSql, checklistPageIds, checklistSortRows, type ChecklistSortRow } from '../../rows/checklists';
import { templateByKey } from '../../rows/templates';

export const CHECKLIST_STATUSES = ['Scheduled', 'InProgress', 'Complete'] as const;
export type ChecklistStatus = (typeof CHECKLIST_STATUSES)[number];
export const SORT_FIELDS = ['createdDateTime', 'name', 'status', 'startDateTime', 'dueDateTime', 'completedDateTime'] as const;
export const DEFAULT_SORT: Sort = { field: 'createdDateTime', dir: 'desc' };

export interface ChecklistFilters {
  templateKey?: string;
  status?: string | string[];
  search?: string;
  tag?: string;
  createdBy?: number;
  includeArchived?: boolean;
  isArchived?: boolean;
}

const norm = (s: string) => s.replace(/[\s_-]/g, '').toLowerCase();

/** Comma-separated (or listed) statuses; case, spaces, hyphens and underscores ignored, like the task filter (4.3). */
export function parseChecklistStatuses(value: string | string[] | undefined, field = 'status'): ChecklistStatus[] | undefined {
  if (value === undefined) return undefined;
  const parts = (Array.isArray(value) ? value : value.split(',')).map((p) => norm(p)).filter((p) => p !== '');
  if (parts.length === 0) throw validationError(`${field} must name one or more of ${CHECKLIST_STATUSES.join(', ')}.`, field);
  const out = new Set<ChecklistStatus>();
  for (const p of parts) {
    const s = CHECKLIST_STATUSES.find((x) => norm(x) === p);
    if (!s) throw validationError(`${field} must name one or more of ${CHECKLIST_STATUSES.join(', ')}, comma-separated.`, field);
    out.add(s);
  }
  return CHECKLIST_STATUSES.filter((s) => out.has(s));
}

/** The workspace's template id for a key, or 404 TEMPLATE_NOT_FOUND. */
export function templateIdOf(ctx: Ctx, key: string): number {
  const t = templateByKey(ctx.db, ctx.workspace.id, key);
  if (!t) throw notFound('TEMPLATE_NOT_FOUND', `No template with key ${key} exists in this workspace.`);
  return t.id;
}

export type { ChecklistSortRow };

/** Full rows for one page (measured: reading every column of 100,000 rows per request kept ~380 MB resident). */
export const fullRow = (ctx: Ctx) => (r: ChecklistSortRow): ChecklistRow => checklistById(ctx, r.id)!;

/** Rows the actor may see that pass the filters, unsorted. */
export function selectChecklists(ctx: Ctx, f: ChecklistFilters): ChecklistSortRow[] {
  const { where, args } = filterSql(ctx, f);
  const rows = checklistSortRows(ctx.db, where, args);
  if (ctx.actor.kind === 'workspace' || ctx.actor.isAdmin) return rows;
  return rows.filter(readableChecklists(ctx));
}

/** The WHERE terms of the list filters (not the read rule): statuses are checked before the template is looked up. */
function filterSql(ctx: Ctx, f: ChecklistFilters): { where: string[]; args: (string | number)[] } {
  const statuses = parseChecklistStatuses(f.status);
  return checklistFilterSql({
    workspaceId: ctx.workspace.id,
    templateId: f.templateKey !== undefined ? templateIdOf(ctx, f.templateKey) : undefined,
    statuses,
    isArchived: f.isArchived,
    includeArchived: f.includeArchived,
    createdBy: f.createdBy,
    search: f.search?.trim() || undefined,
    tag: f.tag?.trim(),
  });
}

/**
 * A page straight from SQL, so memory stays one page whatever the number of checklists
 * (measured: sorting 100,000 rows in JS per request peaked above 300 MB). Name order is
 * the collator's (compareText), which SQLite cannot reproduce, so `name` keeps the JS path.
 */
function pageInSql(ctx: Ctx, f: ChecklistFilters, sort: Sort, pageSize: number, offset: number) {
  const { where, args } = filterSql(ctx, f);
  const access = readableChecklistsSql(ctx);
  if (access) {
    where.push(access.sql);
    args.push(...access.args);
  }
  return checklistPageIds(ctx.db, where, args, sort, pageSize, offset);
}

const STATUS_ORDER: Record<string, number> = { Scheduled: 0, InProgress: 1, Complete: 2 };

/** Sorts in place; rows without the sorted value come last in both directions; ties by creation then id. */
export function sortChecklists<R extends ChecklistSortRow>(rows: R[], sort: Sort): R[] {
  const dir = sort.dir === 'asc' ? 1 : -1;
  const value = (r: ChecklistSortRow): number | string | null => {
    switch (sort.field) {
      case 'name': return r.name;
      case 'status': return STATUS_ORDER[r.status];
      case 'startDateTime': return r.started_at;
      case 'dueDateTime': return r.due_at;
      case 'completedDateTime': return r.status === 'Complete' ? r.completed_at : null;
      default: return r.created_at;
    }
  };
  return rows.sort((a, b) => {
    const va = value(a), vb = value(b);
    if (va === null && vb !== null) return 1;
    if (vb === null && va !== null) return -1;
    let c = 0;
    if (va !== null && vb !== null) c = typeof va === 'string' ? compareText(va, vb as string) : (va as number) - (vb as number);
    if (c === 0) c = a.created_at - b.created_at || a.id - b.id;
    return dir * c;
  });
}

/** What a cursor is bound to of the filters shared by list and search (4.1 rule 11). */
export function filterBinding(ctx: Ctx, f: ChecklistFilters): unknown[] {
  return [
    ctx.actor.member.id,
    f.templateKey?.toLowerCase() ?? null,
    parseChecklistStatuses(f.status) ?? null,
    f.search?.trim() ?? null,
    f.tag?.trim().toLowerCase() ?? null,
    f.createdBy ?? null,
    f.includeArchived ?? false,
    f.isArchived ?? null,
  ];
}

export interface ListChecklistsInput extends ChecklistFilters {
  sort?: string;
  after?: string;
  pageSize?: number;
}

export function listChecklists(ctx: Ctx, input: ListChecklistsInput) {
  const sort = parseSort(input.sort, SORT_FIELDS, DEFAULT_SORT);
  const pageSize = input.pageSize ?? 50;
  const binding = ['checklists', ...filterBinding(ctx, input), sort, pageSize];
  const offset = decodeCursor(input.after, binding); // a bad cursor is refused before anything it names is looked up
  if (sort.field !== 'name') {
    const { total, ids } = pageInSql(ctx, input, sort, pageSize, offset);
    const hasMore = offset + pageSize < total;
    return {
      items: ids.map((id) => checklistView(ctx, checklistById(ctx, id)!)),
      ...(hasMore ? { nextCursor: encodeCursor(offset + pageSize, binding) } : {}),
      hasMore,
      total,
    };
  }
  const rows = sortChecklists(selectChecklists(ctx, input), sort);
  const full = fullRow(ctx);
  return paginate(rows, pageSize, input.after, binding, (r) => checklistView(ctx, full(r)));
}
