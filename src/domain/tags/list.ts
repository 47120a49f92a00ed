// Tags (spec v3 2.6): counts per carrier; total also counts carriers the API does not reach.
import type { Ctx } from '../../context';
import { tagCountRows } from '../../rows/tags';
import { compareText, cursorScope, lenientPageSize, paginate, parseSort } from '../paging';

interface TagCounts {
  name: string;
  checklists: number;
  templates: number;
  tasks: number;
  total: number;
}

export function tagCounts(ctx: Ctx): TagCounts[] {
  return tagCountRows(ctx.db, ctx.workspace.id).map((r) => ({ name: r.name, checklists: r.checklists ?? 0, templates: r.templates ?? 0, tasks: r.tasks ?? 0, total: r.total }));
}

export function listTags(ctx: Ctx, input: { search?: string; sort?: string; after?: string; pageSize?: unknown }) {
  const sort = parseSort(input.sort, ['name', 'usage'], { field: 'name', dir: 'asc' });
  const q = input.search?.trim().toLowerCase();
  let rows = tagCounts(ctx);
  if (q) rows = rows.filter((t) => t.name.toLowerCase().includes(q));
  const dir = sort.dir === 'asc' ? 1 : -1;
  rows.sort((a, b) => dir * (sort.field === 'usage' ? a.total - b.total || compareText(a.name, b.name) : compareText(a.name, b.name)));
  const pageSize = lenientPageSize(input.pageSize);
  return paginate(rows, pageSize, input.after, ['tags', cursorScope(ctx), q ?? '', sort, pageSize]);
}
