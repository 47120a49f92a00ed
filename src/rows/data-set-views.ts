// Data Set view rows (schema.sql `data_set_views`, and `data_set_removed_views`: names of views
// deleted or renamed, so template validation can warn rather than refuse). The default view first.
import type { Db } from '../store/open';

export interface ViewRow {
  id: number;
  key: string;
  data_set_id: number;
  name: string;
  is_default: number;
  /** JSON arrays as stored. */
  filters: string;
  sorts: string;
  hidden_fields: string;
}

export const viewsOfDataSet = (db: Db, dataSetId: number): ViewRow[] => db.prepare<[number], ViewRow>('SELECT * FROM data_set_views WHERE data_set_id = ? ORDER BY is_default DESC, id').all(dataSetId);

export const defaultViewOf = (db: Db, dataSetId: number): ViewRow | undefined =>
  db.prepare<[number], ViewRow>('SELECT * FROM data_set_views WHERE data_set_id = ? ORDER BY is_default DESC, id LIMIT 1').get(dataSetId);

export const viewByKey = (db: Db, dataSetId: number, key: string): ViewRow | undefined =>
  db.prepare<[string, number], ViewRow>('SELECT * FROM data_set_views WHERE key = ? COLLATE NOCASE AND data_set_id = ?').get(key, dataSetId);

/** filters, sorts and hidden_fields are JSON arrays. */
export function insertViewRow(db: Db, v: { key: string; dataSetId: number; name: string; isDefault: boolean; filters: string; sorts: string; hiddenFields: string }): void {
  db.prepare('INSERT INTO data_set_views (key, data_set_id, name, is_default, filters, sorts, hidden_fields) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    v.key,
    v.dataSetId,
    v.name,
    v.isDefault ? 1 : 0,
    v.filters,
    v.sorts,
    v.hiddenFields,
  );
}

export const setViewName = (db: Db, id: number, name: string): void => void db.prepare('UPDATE data_set_views SET name = ? WHERE id = ?').run(name, id);
export const setViewFilters = (db: Db, id: number, filters: string): void => void db.prepare('UPDATE data_set_views SET filters = ? WHERE id = ?').run(filters, id);
export const setViewSorts = (db: Db, id: number, sorts: string): void => void db.prepare('UPDATE data_set_views SET sorts = ? WHERE id = ?').run(sorts, id);
export const setViewHiddenFields = (db: Db, id: number, hidden: string): void => void db.prepare('UPDATE data_set_views SET hidden_fields = ? WHERE id = ?').run(hidden, id);
export const deleteViewRow = (db: Db, id: number): void => void db.prepare('DELETE FROM data_set_views WHERE id = ?').run(id);

export const insertRemovedView = (db: Db, dataSetId: number, name: string, at: number): void =>
  void db.prepare('INSERT INTO data_set_removed_views (data_set_id, name, removed_at) VALUES (?, ?, ?)').run(dataSetId, name, at);

export const removedViewCount = (db: Db, dataSetId: number, name: string): number =>
  db.prepare<[number, string], { n: number }>('SELECT COUNT(*) AS n FROM data_set_removed_views WHERE data_set_id = ? AND name = ? COLLATE NOCASE').get(dataSetId, name)!.n;

export const setViewSpec = (db: Db, id: number, filters: string, sorts: string, hidden: string): void =>
  void db.prepare('UPDATE data_set_views SET filters = ?, sorts = ?, hidden_fields = ? WHERE id = ?').run(filters, sorts, hidden, id);

/** A view's filters and sorts, found by key or by name. */
export const viewSpecByKeyOrName = (db: Db, dataSetId: number, key: string, name: string): { filters: string; sorts: string } | undefined =>
  db
    .prepare<[number, string, string], { filters: string; sorts: string }>('SELECT filters, sorts FROM data_set_views WHERE data_set_id = ? AND (key = ? COLLATE NOCASE OR name = ? COLLATE NOCASE)')
    .get(dataSetId, key, name);
