// Data Set record rows (schema.sql `data_set_records`): values as one JSON object keyed by field key.
import type { Db } from '../store/open';
import { insertOf, selectList, type RowOf } from '../store/columns';
import { dataSetRecordsTable } from '../store/tables/datasets';

/** A record as the finders read it: without its set and creation time (store/tables/datasets.ts). */
export type RecordRow = Pick<RowOf<typeof dataSetRecordsTable.columns>, (typeof RECORD_COLUMNS)[number]>;

const RECORD_COLUMNS = ['id', 'key', 'position', 'vals'] as const;
const RECORD = selectList(dataSetRecordsTable, RECORD_COLUMNS);

export const recordsOfDataSet = (db: Db, dataSetId: number): RecordRow[] =>
  db.prepare<[number], RecordRow>(`SELECT ${RECORD} FROM data_set_records WHERE data_set_id = ? ORDER BY position, id`).all(dataSetId);

export const recordByKey = (db: Db, dataSetId: number, key: string): RecordRow | undefined =>
  db.prepare<[string, number], RecordRow>(`SELECT ${RECORD} FROM data_set_records WHERE key = ? COLLATE NOCASE AND data_set_id = ?`).get(key, dataSetId);

/** A record by row id with its set (an event subject). */
export const recordById = (db: Db, id: number): { key: string; data_set_id: number; vals: string } | undefined =>
  db.prepare<[number], { key: string; data_set_id: number; vals: string }>('SELECT key, data_set_id, vals FROM data_set_records WHERE id = ?').get(id);

export const recordCountOf = (db: Db, dataSetId: number): number => db.prepare<[number], { n: number }>('SELECT COUNT(*) AS n FROM data_set_records WHERE data_set_id = ?').get(dataSetId)!.n;

export const nextRecordPosition = (db: Db, dataSetId: number): number =>
  db.prepare<[number], { p: number }>('SELECT coalesce(max(position), -1) + 1 AS p FROM data_set_records WHERE data_set_id = ?').get(dataSetId)!.p;

const RECORD_INSERT = insertOf(dataSetRecordsTable);

export function insertRecordRow(db: Db, r: { key: string; dataSetId: number; position: number; vals: string; createdAt: number }): number {
  const row = { key: r.key, data_set_id: r.dataSetId, position: r.position, vals: r.vals, created_at: r.createdAt };
  return Number(db.prepare(RECORD_INSERT.sql).run(RECORD_INSERT.values(row)).lastInsertRowid);
}

export const setRecordVals = (db: Db, id: number, vals: string): void => void db.prepare('UPDATE data_set_records SET vals = ? WHERE id = ?').run(vals, id);
export const deleteRecordRow = (db: Db, id: number): void => void db.prepare('DELETE FROM data_set_records WHERE id = ?').run(id);
export const deleteRecordsOf = (db: Db, dataSetId: number): void => void db.prepare('DELETE FROM data_set_records WHERE data_set_id = ?').run(dataSetId);

/** The records holding a value at `path` (a JSON path of one field), in record order, with that value. */
export const recordValuesAt = (db: Db, dataSetId: number, path: string): { id: number; key: string; v: string | number }[] =>
  db
    .prepare<[string, number, string], { id: number; key: string; v: string | number }>('SELECT id, key, vals ->> ? AS v FROM data_set_records WHERE data_set_id = ? AND json_type(vals, ?) IS NOT NULL ORDER BY position, id')
    .all(path, dataSetId, path);

/** Sets one value (`json`, JSON text) at `path` of a record. */
export const setRecordValueAt = (db: Db, id: number, path: string, json: string): void => void db.prepare('UPDATE data_set_records SET vals = json_set(vals, ?, json(?)) WHERE id = ?').run(path, json, id);

/** Removes the value at `path` from every record of the set. */
export const removeRecordValuesAt = (db: Db, dataSetId: number, path: string): void =>
  void db.prepare('UPDATE data_set_records SET vals = json_remove(vals, ?) WHERE data_set_id = ? AND json_type(vals, ?) IS NOT NULL').run(path, dataSetId, path);
