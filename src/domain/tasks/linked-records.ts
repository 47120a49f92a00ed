// Records a field linked to a Data Set may be answered with (spec v3 2.5 "A linked field is
// answered with a record of the linked view"). The template document names the Data Set, its
// view and display field; the view's filters (legacy operators eq, neq, contains, ...) apply.
import type { Ctx } from '../../context';
import type { DocField } from '../templates/document';

// Reused: localeCompare with options builds a collator per call.
const numericCollator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

export interface LinkedRecord {
  key: string;
  text: string;
}

interface DataSetLink {
  name?: string;
  key?: string;
  view?: string;
  viewKey?: string;
  displayField?: string;
  displayFieldKey?: string;
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
  let records = ctx.db
    .prepare<[number], { key: string; vals: string }>('SELECT key, vals FROM data_set_records WHERE data_set_id = ? ORDER BY position, id')
    .all(ds.id)
    .map((r) => ({ key: r.key, vals: JSON.parse(r.vals) as Record<string, unknown> }));
  if (view) {
    const filters = JSON.parse(view.filters) as { fieldId: string; operator: string; value?: string }[];
    records = records.filter((r) => filters.every((flt) => viewFilterHolds(flt.operator, r.vals[flt.fieldId], flt.value)));
    const sorts = (JSON.parse(view.sorts) as { fieldId: string; direction?: string; position?: number }[]).sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
    if (sorts.length) {
      records.sort((a, b) => {
        for (const s of sorts) {
          const c = numericCollator.compare(String(a.vals[s.fieldId] ?? ''), String(b.vals[s.fieldId] ?? ''));
          if (c) return s.direction === 'desc' ? -c : c;
        }
        return 0;
      });
    }
  }
  return records.map((r) => ({ key: r.key, text: display ? String(r.vals[display.key] ?? '') : '' }));
}

function viewFilterHolds(op: string, raw: unknown, value = ''): boolean {
  const v = raw === null || raw === undefined ? '' : String(raw).toLowerCase();
  const w = value.toLowerCase();
  const num = (s: string) => (s.trim() !== '' && !Number.isNaN(Number(s)) ? Number(s) : NaN);
  const cmp = () => (!Number.isNaN(num(v)) && !Number.isNaN(num(w)) ? num(v) - num(w) : v.localeCompare(w));
  switch (op) {
    case 'eq': return v === w;
    case 'neq': return v !== w;
    case 'contains': return v.includes(w);
    case 'not_contains': return !v.includes(w);
    case 'starts_with': return v.startsWith(w);
    case 'ends_with': return v.endsWith(w);
    case 'gt': return v !== '' && cmp() > 0;
    case 'gte': return v !== '' && cmp() >= 0;
    case 'lt': return v !== '' && cmp() < 0;
    case 'lte': return v !== '' && cmp() <= 0;
    case 'is_empty': return v === '';
    case 'is_not_empty': return v !== '';
    case 'in': return w.split(',').map((s) => s.trim()).includes(v);
    default: return true;
  }
}
