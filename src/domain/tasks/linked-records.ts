// Records a field linked to a Data Set may be answered with (spec v3 2.5 "A linked field is
// answered with a record of the linked view"). The template document names the Data Set, its
// view and display field; the view's filters and sorts apply as in the Data Set API.
import type { Ctx } from '../../context';
import type { DataSetLink, DocField } from '../../rows/template-document';
import { allRecords } from '../datasets/query';
import type { FieldRow } from '../../rows/data-set-fields';

export interface LinkedRecord {
  key: string;
  text: string;
}


export const isLinked = (f: DocField) => typeof f.dataSet === 'object' && f.dataSet !== null;

export function linkedRecords(ctx: Ctx, f: DocField): LinkedRecord[] {
  const link = f.dataSet as DataSetLink;
  const ds = ctx.db
    .prepare<[string, string, string, number], { id: number }>(
      `SELECT id FROM data_sets WHERE (key = ? COLLATE NOCASE OR name = ? COLLATE NOCASE OR slug = ? COLLATE NOCASE)
         AND (workspace_id = ? OR workspace_id IS NULL) ORDER BY workspace_id IS NULL LIMIT 1`,
    )
    .get(link.key ?? '', link.name ?? '', link.name ?? '', ctx.workspace.id);
  if (!ds) return [];
  const fields = ctx.db.prepare<[number], { key: string; name: string }>('SELECT key, name FROM data_set_fields WHERE data_set_id = ? ORDER BY position').all(ds.id);
  const display =
    fields.find((x) => x.key.toLowerCase() === (link.displayFieldKey ?? '').toLowerCase()) ??
    fields.find((x) => x.name.toLowerCase() === (link.displayField ?? '').toLowerCase()) ??
    fields[0];
  const view = ctx.db
    .prepare<[number, string, string], { filters: string; sorts: string }>(
      'SELECT filters, sorts FROM data_set_views WHERE data_set_id = ? AND (key = ? COLLATE NOCASE OR name = ? COLLATE NOCASE)',
    )
    .get(ds.id, link.viewKey ?? '', link.view ?? '');
  // The view's filters and sorts are the Data Set store's own (src/domain/datasets/query.ts), so a
  // linked field offers exactly what GET .../records?viewId= lists.
  const spec = view ? { filters: JSON.parse(view.filters), sorts: JSON.parse(view.sorts) } : { filters: [], sorts: [] };
  const allFields = ctx.db.prepare<[number], FieldRow>('SELECT * FROM data_set_fields WHERE data_set_id = ? ORDER BY position, id').all(ds.id);
  return allRecords(ctx, ds.id, allFields, spec).map((r) => {
    const vals = JSON.parse(r.vals) as Record<string, unknown>;
    return { key: r.key, text: display ? String(vals[display.key] ?? '') : '' };
  });
}
