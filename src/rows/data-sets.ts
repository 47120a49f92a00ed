// Data Set rows (schema.sql `data_sets`). System sets (workspace_id NULL) are shared by every workspace.
import type { Db } from '../store/open';
import { insertOf, type RowOf } from '../store/columns';
import { dataSetsTable } from '../store/tables/datasets';

/** A Data Set row as stored (store/tables/datasets.ts). */
export type DataSetRow = RowOf<typeof dataSetsTable.columns>;

/** A set of this workspace, or a system set, by key. */
export const dataSetByKey = (db: Db, workspaceId: number, key: string): DataSetRow | undefined =>
  db.prepare<[string, number], DataSetRow>('SELECT * FROM data_sets WHERE key = ? COLLATE NOCASE AND (workspace_id = ? OR workspace_id IS NULL)').get(key, workspaceId);

export const systemDataSetBySlug = (db: Db, slug: string): DataSetRow | undefined => db.prepare<[string], DataSetRow>('SELECT * FROM data_sets WHERE workspace_id IS NULL AND slug = ? COLLATE NOCASE').get(slug);

/** A system set by key or slug. */
export const systemDataSetByRef = (db: Db, ref: string): DataSetRow | undefined =>
  db.prepare<[string, string], DataSetRow>("SELECT * FROM data_sets WHERE workspace_id IS NULL AND source = 'system' AND (key = ? COLLATE NOCASE OR slug = ? COLLATE NOCASE)").get(ref, ref);

export const dataSetById = (db: Db, id: number): DataSetRow | undefined => db.prepare<[number], DataSetRow>('SELECT * FROM data_sets WHERE id = ?').get(id);

/** A workspace's sets and the system sets, with field and record counts: organisation sets by name, then system sets. */
export const dataSetsWithCounts = (db: Db, workspaceId: number): (DataSetRow & { field_count: number; record_count: number })[] =>
  db
    .prepare<[number], DataSetRow & { field_count: number; record_count: number }>(
      `SELECT d.*, (SELECT COUNT(*) FROM data_set_fields f WHERE f.data_set_id = d.id) AS field_count,
              (SELECT COUNT(*) FROM data_set_records r WHERE r.data_set_id = d.id) AS record_count
         FROM data_sets d WHERE d.workspace_id = ? OR d.workspace_id IS NULL
        ORDER BY d.workspace_id IS NULL, d.name COLLATE NOCASE, d.id`,
    )
    .all(workspaceId);

/** The set a template links to by name (or a system set's slug): this workspace's before a system one. */
export const dataSetByName = (db: Db, workspaceId: number, name: string): { id: number; key: string; name: string } | undefined =>
  db
    .prepare<[number, string, string], { id: number; key: string; name: string }>(
      `SELECT id, key, name FROM data_sets WHERE (workspace_id = ? OR workspace_id IS NULL) AND (lower(name) = lower(?) OR lower(slug) = lower(?))
        ORDER BY workspace_id IS NULL, id LIMIT 1`,
    )
    .get(workspaceId, name, name);

/** An organisation set (no slug, no folder: NULL). */
const DATA_SET_INSERT = insertOf(dataSetsTable);

export function insertDataSetRow(db: Db, s: { key: string; workspaceId: number; name: string; description: string | null; now: number }): number {
  const row = { key: s.key, workspace_id: s.workspaceId, name: s.name, description: s.description, source: 'organisation' as const, created_at: s.now, updated_at: s.now };
  return Number(db.prepare(DATA_SET_INSERT.sql).run(DATA_SET_INSERT.values(row)).lastInsertRowid);
}

export const setDataSetName = (db: Db, id: number, name: string): void => void db.prepare('UPDATE data_sets SET name = ? WHERE id = ?').run(name, id);
export const setDataSetDescription = (db: Db, id: number, description: string | null): void => void db.prepare('UPDATE data_sets SET description = ? WHERE id = ?').run(description, id);
export const setDataSetUpdatedAt = (db: Db, id: number, at: number): void => void db.prepare('UPDATE data_sets SET updated_at = ? WHERE id = ?').run(at, id);
export const deleteDataSetRow = (db: Db, id: number): void => void db.prepare('DELETE FROM data_sets WHERE id = ?').run(id);

/** The set a linked field names, by key, name or slug: the workspace's own before a system set. */
export const dataSetForLink = (db: Db, workspaceId: number, key: string, name: string): { id: number } | undefined =>
  db
    .prepare<[string, string, string, number], { id: number }>(
      `SELECT id FROM data_sets WHERE (key = ? COLLATE NOCASE OR name = ? COLLATE NOCASE OR slug = ? COLLATE NOCASE)
         AND (workspace_id = ? OR workspace_id IS NULL) ORDER BY workspace_id IS NULL LIMIT 1`,
    )
    .get(key, name, name, workspaceId);
