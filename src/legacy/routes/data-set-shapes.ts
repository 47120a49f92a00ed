// Legacy v2 Data Set shapes (legacy spec 2 "Data Set", "field", "record", "view",
// "Record page"): `id`s, and null where a value is missing (slug, description,
// updatedAt of a system set), as the legacy table prints them.
import { iso } from '../../clock';
import type { RecordOut } from '../../domain/datasets/records';
import type { DataSetRow, FieldRow, StoredFilter, StoredSort, ViewRow } from '../../domain/datasets/lookup';
import type { DataSetFull, DataSetSummary } from '../../domain/datasets/sets';

function base(r: DataSetRow) {
  return { id: r.key, slug: r.slug, name: r.name, source: r.source, description: r.description };
}
const times = (r: DataSetRow) => ({ createdAt: iso(r.created_at) ?? null, updatedAt: r.source === 'system' ? null : (iso(r.updated_at) ?? null) });

export const legacySummary = (s: DataSetSummary) => ({ ...base(s.row), fieldCount: s.fieldCount, recordCount: s.recordCount, ...times(s.row) });

export const legacyField = (f: FieldRow) => ({ id: f.key, name: f.name, type: f.type, description: f.description, position: f.position });

export function legacyView(v: ViewRow) {
  return {
    id: v.key,
    name: v.name,
    isDefault: v.is_default === 1,
    filters: (JSON.parse(v.filters) as StoredFilter[]).map((f) => ({ fieldId: f.fieldId, operator: f.operator, value: f.value ?? null })),
    sorts: (JSON.parse(v.sorts) as StoredSort[]).map((s) => ({ fieldId: s.fieldId, direction: s.direction ?? 'asc', position: s.position ?? 0 })),
    hiddenFields: JSON.parse(v.hidden_fields) as string[],
  };
}

export const legacyFull = (d: DataSetFull) => ({ ...base(d.row), ...times(d.row), fields: d.fields.map(legacyField), views: d.views.map(legacyView) });

export const legacyRecord = (r: RecordOut) => ({ id: r.key, position: r.position, values: r.values });
