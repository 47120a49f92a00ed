// Data Set links of a template field, resolved by name (spec v3 2.5 "Data Set link").
// Documents name Data Sets, views and fields; keys are looked up when read.
import type { Db } from '../../store/open';
import { dataSetByName, type DataSetRow } from '../../rows/data-sets';
import { fieldsOfDataSet, type FieldRow as StoredFieldRow } from '../../rows/data-set-fields';
import { viewsOfDataSet, type ViewRow as StoredViewRow } from '../../rows/data-set-views';

export interface DataSetLinkDoc {
  name: string;
  view?: string;
  displayField?: string;
  columns?: { field: string; column?: string }[];
  prePopulateRows?: boolean;
}

// What a link reads of the set, view and field rows.
type DsRow = Pick<DataSetRow, 'id' | 'key' | 'name'>;
type ViewRow = Pick<StoredViewRow, 'id' | 'key' | 'name' | 'is_default'>;
type FieldRow = Pick<StoredFieldRow, 'key' | 'name'>;

export function findDataSet(db: Db, workspaceId: number, name: string): DsRow | undefined {
  return dataSetByName(db, workspaceId, name.trim());
}

export function findView(db: Db, dataSetId: number, name: string | undefined): ViewRow | undefined {
  const views: ViewRow[] = viewsOfDataSet(db, dataSetId);
  if (name === undefined) return views[0];
  return views.find((v) => v.name.toLowerCase() === name.trim().toLowerCase());
}

export function dataSetFields(db: Db, dataSetId: number): FieldRow[] {
  return fieldsOfDataSet(db, dataSetId);
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
