// Data Set view rows (schema.sql `data_set_views`, and `data_set_removed_views`: names of views
// deleted or renamed, so template validation can warn rather than refuse). The default view first.
import type { Db } from '../store/open';
import { insertOf, type RowOf } from '../store/columns';
import { dataSetRemovedViewsTable, dataSetViewsTable } from '../store/tables/datasets';

/** A view row as stored (store/tables/datasets.ts): filters, sorts and hidden fields as JSON arrays. */
export type ViewRow = RowOf<typeof dataSetViewsTable.columns>;

export const viewsOfDataSet = (db: Db, dataSetId: number): ViewRow[] => db.prepare<[number], ViewRow>('SELECT * FROM data_set_views WHERE data_set_id = ? ORDER BY is_default DESC, id').all(dataSetId);

export const defaultViewOf = (db: Db, dataSetId: number): ViewRow | undefined =>
  db.prepare<[number], ViewRow>('SELECT * FROM data_set_views WHERE data_set_id = ? ORDER BY is_default DESC, id LIMIT 1').get(dataSetId);

export const viewByKey = (db: Db, dataSetId: number, key: string): ViewRow | undefined =>
  db.prepare<[string, number], ViewRow>('SELECT * FROM data_set_views WHERE key = ? COLLATE NOCASE AND data_set_id = ?').get(key, dataSetId);

const VIEW_INSERT = insertOf(dataSetViewsTable);

/** filters, sorts and hidden_fields are JSON arrays. */
export function insertViewRow(db: Db, v: { key: string; dataSetId: number; name: string; isDefault: boolean; filters: string; sorts: string; hiddenFields: string }): void {
  const row = { key: v.key, data_set_id: v.dataSetId, name: v.name, is_default: v.isDefault ? 1 : 0, filters: v.filters, sorts: v.sorts, hidden_fields: v.hiddenFields };
  db.prepare(VIEW_INSERT.sql).run(VIEW_INSERT.values(row));
}

export const setViewName = (db: Db, id: number, name: string): void => void db.prepare('UPDATE data_set_views SET name = ? WHERE id = ?').run(name, id);
export const setViewFilters = (db: Db, id: number, filters: string): void => void db.prepare('UPDATE data_set_views SET filters = ? WHERE id = ?').run(filters, id);
export const setViewSorts = (db: Db, id: number, sorts: string): void => void db.prepare('UPDATE data_set_views SET sorts = ? WHERE id = ?').run(sorts, id);
export const setViewHiddenFields = (db: Db, id: number, hidden: string): void => void db.prepare('UPDATE data_set_views SET hidden_fields = ? WHERE id = ?').run(hidden, id);
export const deleteViewRow = (db: Db, id: number): void => void db.prepare('DELETE FROM data_set_views WHERE id = ?').run(id);

const REMOVED_VIEW_INSERT = insertOf(dataSetRemovedViewsTable);

export const insertRemovedView = (db: Db, dataSetId: number, name: string, at: number): void =>
  void db.prepare(REMOVED_VIEW_INSERT.sql).run(REMOVED_VIEW_INSERT.values({ data_set_id: dataSetId, name, removed_at: at }));

export const removedViewCount = (db: Db, dataSetId: number, name: string): number =>
  db.prepare<[number, string], { n: number }>('SELECT COUNT(*) AS n FROM data_set_removed_views WHERE data_set_id = ? AND name = ? COLLATE NOCASE').get(dataSetId, name)!.n;

export const setViewSpec = (db: Db, id: number, filters: string, sorts: string, hidden: string): void =>
  void db.prepare('UPDATE data_set_views SET filters = ?, sorts = ?, hidden_fields = ? WHERE id = ?').run(filters, sorts, hidden, id);

/** A view's filters and sorts, found by key or by name. */
export const viewSpecByKeyOrName = (db: Db, dataSetId: number, key: string, name: string): { filters: string; sorts: string } | undefined =>
  db
    .prepare<[number, string, string], { filters: string; sorts: string }>('SELECT filters, sorts FROM data_set_views WHERE data_set_id = ? AND (key = ? COLLATE NOCASE OR name = ? COLLATE NOCASE)')
    .get(dataSetId, key, name);
