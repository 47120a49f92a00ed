// The arguments of create_my_work_view and update_my_work_view (spec v3 4.6) turned into a
// stored definition: defaults applied (a replacement restores every omitted argument), pure
// checks first (400), then the caller's permission check (403), then the lookups of what the
// view names (404 templates, 400 people and groups).
import type { SavedViewType } from '../../rows/saved-views';
import type { Ctx } from '../../context';
import { notFound, validationError } from '../../errors';
import { parseSort } from '../paging';
import { resolveNamingList, type NamingEntry } from '../tasks/naming';
import type { ViewDefinition } from './core-views';
import { OPEN_STATUSES, STATUSES, statusName, type GridStatus } from './status';
import { templateByKey } from '../../rows/templates';

export const VIEW_SORT_FIELDS = ['name', 'status', 'dueDateTime', 'checklistName', 'templateName', 'assignees', 'commentCount', 'tags'] as const;
export const VIEW_TYPES = ['Private', 'UsersGroups', 'Team'] as const;
export type ViewType = SavedViewType;

export interface ViewInput {
  name: string;
  type?: string;
  search?: string;
  statuses?: string[];
  allTemplates?: boolean;
  templates?: string[];
  includeStandalone?: boolean;
  allAssignees?: boolean;
  includeUnassigned?: boolean;
  assignees?: NamingEntry[];
  sort?: string;
  visibleTo?: NamingEntry[];
}

function viewType(t: string | undefined): ViewType {
  if (t === undefined) return 'Private';
  if (t.trim().toLowerCase() === 'core') throw validationError('type Core is refused: core views ship with the service and cannot be created. Use Private, UsersGroups or Team.', 'type');
  const found = VIEW_TYPES.find((v) => v.toLowerCase() === t.trim().toLowerCase());
  if (!found) throw validationError(`type must be Private, UsersGroups or Team (got ${t}).`, 'type');
  return found;
}

export function definitionOf(ctx: Ctx, input: ViewInput, permission: (type: ViewType) => void): { type: ViewType; def: ViewDefinition } {
  const name = input.name.trim();
  if (name === '') throw validationError('name must not be empty.', 'name');
  const type = viewType(input.type);
  let statuses: GridStatus[] = [...OPEN_STATUSES];
  if (input.statuses !== undefined) {
    if (input.statuses.length === 0) throw validationError('statuses must name at least one status; omit it for the four open ones.', 'statuses');
    statuses = [];
    input.statuses.forEach((s, i) => {
      const st = statusName(s);
      if (!st) throw validationError(`statuses[${i}] ${s} is not a Tasks grid status: use ${STATUSES.join(', ')}.`, `statuses[${i}]`);
      if (!statuses.includes(st)) statuses.push(st);
    });
  }
  const templates = [...new Set((input.templates ?? []).map((k) => k.toLowerCase()))];
  if (input.allTemplates === true && templates.length) throw validationError('allTemplates true cannot be sent with templates named: send one or the other.', 'allTemplates');
  const allTemplates = input.allTemplates ?? templates.length === 0;
  const allAssignees = input.allAssignees ?? false;
  if (allAssignees && (input.assignees ?? []).length) throw validationError('allAssignees true cannot be sent with assignees named: send one or the other.', 'allAssignees');
  if (input.visibleTo !== undefined && type !== 'UsersGroups') {
    throw validationError(`visibleTo is only for UsersGroups views: a ${type} view is shared ${type === 'Team' ? 'with everyone' : 'with nobody'}.`, 'visibleTo');
  }
  const sort = parseSort(input.sort, VIEW_SORT_FIELDS, { field: 'dueDateTime', dir: 'asc' });

  permission(type);

  const templateKeys = templates.map((k) => {
    const row = templateByKey(ctx.db, ctx.workspace.id, k);
    if (!row) throw notFound('TEMPLATE_NOT_FOUND', `No template with key ${k} exists in this workspace.`);
    return row.key;
  });
  const assignees = resolveNamingList(ctx, input.assignees ?? [], 'assignees');
  const visibleTo = resolveNamingList(ctx, input.visibleTo ?? [], 'visibleTo');
  return {
    type,
    def: {
      name,
      search: input.search === undefined || input.search === '' ? undefined : input.search,
      statuses,
      allTemplates,
      templates: templateKeys,
      includeStandalone: input.includeStandalone ?? true,
      allAssignees,
      includeUnassigned: input.includeUnassigned ?? false,
      assignees,
      sort: `${sort.field}:${sort.dir}`,
      visibleTo,
    },
  };
}
