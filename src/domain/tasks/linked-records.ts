// Records a field linked to a Data Set may be answered with (spec v3 2.5 "A linked field is
// answered with a record of the linked view"). The template document names the Data Set, its
// view and display field; the view's filters and sorts apply as in the Data Set API.
import type { Ctx } from '../../context';
import type { DataSetLink, DocField } from '../../rows/template-document';
import { allRecords } from '../datasets/query';
import { fieldsOfDataSet } from '../../rows/data-set-fields';
import { dataSetForLink } from '../../rows/data-sets';
import { viewSpecByKeyOrName } from '../../rows/data-set-views';

export interface LinkedRecord {
  key: string;
  text: string;
}


export const isLinked = (f: DocField) => typeof f.dataSet === 'object' && f.dataSet !== null;

export function linkedRecords(ctx: Ctx, f: DocField): LinkedRecord[] {
  const link = f.dataSet as DataSetLink;
  const ds = dataSetForLink(ctx.db, ctx.workspace.id, link.key ?? '', link.name ?? '');
  if (!ds) return [];
  const fields = fieldsOfDataSet(ctx.db, ds.id);
  const display =
    fields.find((x) => x.key.toLowerCase() === (link.displayFieldKey ?? '').toLowerCase()) ??
    fields.find((x) => x.name.toLowerCase() === (link.displayField ?? '').toLowerCase()) ??
    fields[0];
  const view = viewSpecByKeyOrName(ctx.db, ds.id, link.viewKey ?? '', link.view ?? '');
  // The view's filters and sorts are the Data Set store's own (src/domain/datasets/query.ts), so a
  // linked field offers exactly what GET .../records?viewId= lists.
  const spec = view ? { filters: JSON.parse(view.filters), sorts: JSON.parse(view.sorts) } : { filters: [], sorts: [] };
  return allRecords(ctx, ds.id, fields, spec).map((r) => {
    const vals = JSON.parse(r.vals) as Record<string, unknown>;
    return { key: r.key, text: display ? String(vals[display.key] ?? '') : '' };
  });
}
