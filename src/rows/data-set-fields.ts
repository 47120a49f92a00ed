// Data Set field rows (schema.sql `data_set_fields`), in position order.
import type { Db } from '../store/open';

/** A field's type as stored (src/domain/datasets/field-types.ts checks values against it). */
export const FIELD_TYPES = ['text', 'number', 'date', 'email', 'url', 'boolean'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export interface FieldRow {
  id: number;
  key: string;
  data_set_id: number;
  name: string;
  type: FieldType;
  description: string | null;
  position: number;
}

export const fieldsOfDataSet = (db: Db, dataSetId: number): FieldRow[] => db.prepare<[number], FieldRow>('SELECT * FROM data_set_fields WHERE data_set_id = ? ORDER BY position, id').all(dataSetId);

export const fieldByKey = (db: Db, dataSetId: number, key: string): FieldRow | undefined =>
  db.prepare<[string, number], FieldRow>('SELECT * FROM data_set_fields WHERE key = ? COLLATE NOCASE AND data_set_id = ?').get(key, dataSetId);

export function insertFieldRow(db: Db, f: { key: string; dataSetId: number; name: string; type: FieldType; description: string | null; position: number }): number {
  return Number(db.prepare('INSERT INTO data_set_fields (key, data_set_id, name, type, description, position) VALUES (?, ?, ?, ?, ?, ?)').run(f.key, f.dataSetId, f.name, f.type, f.description, f.position).lastInsertRowid);
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
