// The v3 shapes of the store's rows (docs/data-sets.md): v3 style, identifiers are
// `key`s, camelCase, valueless properties omitted, arrays always present.
import { iso } from '../../clock';
import type { Ctx } from '../../context';
import type { Connection } from './links';
import type { RecordOut } from './records';
import type { DataSetRow, FieldRow, StoredFilter, StoredSort, ViewRow } from './lookup';
import type { DataSetFull, DataSetSummary } from './sets';

export const dataSetUrl = (ctx: Pick<Ctx, 'appUrl'>, key: string) => `${ctx.appUrl}/app/data-sets/${key}`;

function base(ctx: Ctx, r: DataSetRow, fieldCount: number, recordCount: number) {
  return {
    key: r.key,
    slug: r.slug ?? undefined,
    name: r.name,
    source: r.source,
    description: r.description ?? undefined,
    fieldCount,
    recordCount,
    createdDateTime: iso(r.created_at),
    updatedDateTime: iso(r.updated_at),
    url: dataSetUrl(ctx, r.key),
  };
}

export const v3Summary = (ctx: Ctx, s: DataSetSummary) => base(ctx, s.row, s.fieldCount, s.recordCount);

export const v3Field = (f: FieldRow) => ({ key: f.key, name: f.name, type: f.type, description: f.description ?? undefined, position: f.position });

export function v3View(v: ViewRow) {
  return {
    key: v.key,
    name: v.name,
    isDefault: v.is_default === 1,
    filters: (JSON.parse(v.filters) as StoredFilter[]).map((f) => ({ fieldKey: f.fieldId, operator: f.operator, value: f.value })),
    sorts: (JSON.parse(v.sorts) as StoredSort[]).map((s) => ({ fieldKey: s.fieldId, direction: s.direction ?? 'asc', position: s.position ?? 0 })),
    hiddenFields: JSON.parse(v.hidden_fields) as string[],
  };
}

export const v3Full = (ctx: Ctx, d: DataSetFull) => ({ ...base(ctx, d.row, d.fields.length, d.recordCount), fields: d.fields.map(v3Field), views: d.views.map(v3View) });

export const v3Record = (r: RecordOut) => ({ key: r.key, position: r.position, values: r.values });

export function v3Connection(c: Connection, views: ViewRow[]) {
  const view = views.find((v) => (c.link.viewKey ? v.key.toLowerCase() === c.link.viewKey.toLowerCase() : c.link.view ? v.name.toLowerCase() === c.link.view.trim().toLowerCase() : v.is_default === 1));
  return {
    templateKey: c.templateKey,
    templateName: c.templateName,
    taskKey: c.taskKey,
    fieldKey: c.fieldKey,
    fieldLabel: c.fieldLabel,
    fieldType: c.fieldType,
    viewName: c.link.view ?? view?.name,
    viewKey: view?.key,
    isViewMissing: view === undefined,
  };
}
