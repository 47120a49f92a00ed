// Data Set links of a template field, resolved by name (spec v3 2.5 "Data Set link").
// Documents name Data Sets, views and fields; keys are looked up when read.
import type { Db } from '../../store/open';

export interface DataSetLinkDoc {
  name: string;
  view?: string;
  displayField?: string;
  columns?: { field: string; column?: string }[];
  prePopulateRows?: boolean;
}

interface DsRow {
  id: number;
  key: string;
  name: string;
}
interface ViewRow {
  id: number;
  key: string;
  name: string;
  is_default: number;
}
interface FieldRow {
  key: string;
  name: string;
}

export function findDataSet(db: Db, workspaceId: number, name: string): DsRow | undefined {
  return db
    .prepare<[number, string, string], DsRow>(
      `SELECT id, key, name FROM data_sets WHERE (workspace_id = ? OR workspace_id IS NULL) AND (lower(name) = lower(?) OR lower(slug) = lower(?))
        ORDER BY workspace_id IS NULL, id LIMIT 1`,
    )
    .get(workspaceId, name.trim(), name.trim());
}

export function findView(db: Db, dataSetId: number, name: string | undefined): ViewRow | undefined {
  const views = db.prepare<[number], ViewRow>('SELECT id, key, name, is_default FROM data_set_views WHERE data_set_id = ? ORDER BY is_default DESC, id').all(dataSetId);
  if (name === undefined) return views[0];
  return views.find((v) => v.name.toLowerCase() === name.trim().toLowerCase());
}

export function dataSetFields(db: Db, dataSetId: number): FieldRow[] {
  return db.prepare<[number], FieldRow>('SELECT key, name FROM data_set_fields WHERE data_set_id = ? ORDER BY position').all(dataSetId);
}

export const findField = (fields: FieldRow[], name: string) => fields.find((f) => f.name.toLowerCase() === name.trim().toLowerCase());

/** The spec's Data Set link object; undefined when the linked set, view or field no longer exists. */
export function dataSetLinkView(db: Db, workspaceId: number, fieldType: string, link: DataSetLinkDoc) {
  const ds = findDataSet(db, workspaceId, link.name);
  if (!ds) return undefined;
  const view = findView(db, ds.id, link.view);
  if (!view) return undefined;
  const fields = dataSetFields(db, ds.id);
  const isTable = fieldType === 'Table';
  const out: Record<string, unknown> = { key: ds.key, name: ds.name, viewKey: view.key, viewName: view.name };
  if (!isTable) {
    const display = link.displayField !== undefined ? findField(fields, link.displayField) : fields[0];
    if (!display) return undefined;
    out.displayFieldKey = display.key;
    out.displayFieldName = display.name;
  }
  out.prePopulateRows = isTable && link.prePopulateRows === true;
  if (isTable) out.columns = tableColumns(fields, link);
  return out;
}

/** Table columns of a linked Table: the named fields in order, or every field. */
export function tableColumns(fields: FieldRow[], link: DataSetLinkDoc): { fieldKey: string; fieldName: string; column: string }[] {
  const chosen = link.columns?.length ? link.columns.map((c) => ({ f: findField(fields, c.field), column: c.column })) : fields.map((f) => ({ f, column: undefined }));
  return chosen.filter((c) => c.f).map((c) => ({ fieldKey: c.f!.key, fieldName: c.f!.name, column: c.column ?? c.f!.name }));
}
