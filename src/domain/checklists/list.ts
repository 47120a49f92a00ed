// GET /v3/checklists (spec v3 4.7, 5.3): the checklists the acting member could see in the app
// (a workspace key and Administrators see all), filtered, sorted and paged (4.1 rule 11).
// Filters beyond templateKey and status are ours (docs/checklists.md).
import type { Ctx } from '../../context';
import { notFound, validationError } from '../../errors';
import { compareText, decodeCursor, paginate, parseSort, type Sort } from '../paging';
import { checklistAccess } from '../access/checklists';
import type { ChecklistRow } from './lookup';
import { checklistView } from './view';

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
  const t = ctx.db.prepare<[string, number], { id: number }>('SELECT id FROM templates WHERE key = ? COLLATE NOCASE AND workspace_id = ?').get(key, ctx.workspace.id);
  if (!t) throw notFound('TEMPLATE_NOT_FOUND', `No template with key ${key} exists in this workspace.`);
  return t.id;
}

/** Rows the actor may see that pass the filters, unsorted. */
export function selectChecklists(ctx: Ctx, f: ChecklistFilters): ChecklistRow[] {
  const statuses = parseChecklistStatuses(f.status);
  const where = ['workspace_id = ?'];
  const args: (string | number)[] = [ctx.workspace.id];
  if (f.templateKey !== undefined) {
    where.push('template_id = ?');
    args.push(templateIdOf(ctx, f.templateKey));
  }
  if (statuses) {
    where.push(`status IN (${statuses.map(() => '?').join(',')})`);
    args.push(...statuses);
  }
  if (f.isArchived !== undefined) {
    where.push('is_archived = ?');
    args.push(f.isArchived ? 1 : 0);
  } else if (!f.includeArchived) where.push('is_archived = 0');
  if (f.createdBy !== undefined) {
    where.push('created_by = ?');
    args.push(f.createdBy);
  }
  const q = f.search?.trim();
  if (q) {
    where.push("instr(lower(name), lower(?)) > 0");
    args.push(q);
  }
  const tag = f.tag?.trim();
  if (tag !== undefined) {
    where.push(
      `id IN (SELECT a.target_id FROM tag_assignments a JOIN tags t ON t.id = a.tag_id
               WHERE a.target_type = 'checklist' AND t.workspace_id = ? AND t.name = ? COLLATE NOCASE)`,
    );
    args.push(ctx.workspace.id, tag);
  }
  const rows = ctx.db.prepare<(string | number)[], ChecklistRow>(`SELECT * FROM checklists WHERE ${where.join(' AND ')}`).all(...args);
  if (ctx.actor.kind === 'workspace' || ctx.actor.isAdmin) return rows;
  return rows.filter((r) => checklistAccess(ctx, r).canRead);
}

const STATUS_ORDER: Record<string, number> = { Scheduled: 0, InProgress: 1, Complete: 2 };

/** Sorts in place; rows without the sorted value come last in both directions; ties by creation then id. */
export function sortChecklists(rows: ChecklistRow[], sort: Sort): ChecklistRow[] {
  const dir = sort.dir === 'asc' ? 1 : -1;
  const value = (r: ChecklistRow): number | string | null => {
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

export interface ListChecklistsInput extends ChecklistFilters {
  sort?: string;
  after?: string;
  pageSize?: number;
}

export function listChecklists(ctx: Ctx, input: ListChecklistsInput) {
  const sort = parseSort(input.sort, SORT_FIELDS, DEFAULT_SORT);
  const pageSize = input.pageSize ?? 50;
  const binding = [
    'checklists',
    ctx.actor.member.id,
    input.templateKey?.toLowerCase() ?? null,
    parseChecklistStatuses(input.status) ?? null,
    input.search?.trim() ?? null,
    input.tag?.trim().toLowerCase() ?? null,
    input.createdBy ?? null,
    input.includeArchived ?? false,
    input.isArchived ?? null,
    sort,
    pageSize,
  ];
  decodeCursor(input.after, binding); // a bad cursor is refused before anything it names is looked up
  const rows = sortChecklists(selectChecklists(ctx, input), sort);
  return paginate(rows, pageSize, input.after, binding, (r) => checklistView(ctx, r));
}
