// Data Set field rows (schema.sql `data_set_fields`), in position order.
import type { Db } from '../store/open';
import { insertOf, type RowOf } from '../store/columns';
import { dataSetFieldsTable } from '../store/tables/datasets';

/** A field's type as stored (src/domain/datasets/field-types.ts checks values against it). */
export const FIELD_TYPES = ['text', 'number', 'date', 'email', 'url', 'boolean'] as const satisfies readonly FieldRow['type'][];
export type FieldType = (typeof FIELD_TYPES)[number];

/** A Data Set field row as stored (store/tables/datasets.ts). */
export type FieldRow = RowOf<typeof dataSetFieldsTable.columns>;

export const fieldsOfDataSet = (db: Db, dataSetId: number): FieldRow[] => db.prepare<[number], FieldRow>('SELECT * FROM data_set_fields WHERE data_set_id = ? ORDER BY position, id').all(dataSetId);

export const fieldByKey = (db: Db, dataSetId: number, key: string): FieldRow | undefined =>
  db.prepare<[string, number], FieldRow>('SELECT * FROM data_set_fields WHERE key = ? COLLATE NOCASE AND data_set_id = ?').get(key, dataSetId);

const FIELD_INSERT = insertOf(dataSetFieldsTable);

export function insertFieldRow(db: Db, f: { key: string; dataSetId: number; name: string; type: FieldType; description: string | null; position: number }): number {
  const row = { key: f.key, data_set_id: f.dataSetId, name: f.name, type: f.type, description: f.description, position: f.position };
  return Number(db.prepare(FIELD_INSERT.sql).run(FIELD_INSERT.values(row)).lastInsertRowid);
}

export const setFieldName = (db: Db, id: number, name: string): void => void db.prepare('UPDATE data_set_fields SET name = ? WHERE id = ?').run(name, id);
export const setFieldType = (db: Db, id: number, type: FieldType): void => void db.prepare('UPDATE data_set_fields SET type = ? WHERE id = ?').run(type, id);
export const setFieldDescription = (db: Db, id: number, description: string | null): void => void db.prepare('UPDATE data_set_fields SET description = ? WHERE id = ?').run(description, id);

/** Numbers the fields 0, 1, ... in the order given. */
export function setFieldPositions(db: Db, ids: number[]): void {
  const set = db.prepare('UPDATE data_set_fields SET position = ? WHERE id = ?');
  ids.forEach((id, i) => set.run(i, id));
}

export const deleteFieldRow = (db: Db, id: number): void => void db.prepare('DELETE FROM data_set_fields WHERE id = ?').run(id);
