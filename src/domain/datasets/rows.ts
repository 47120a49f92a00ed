// Data Set rows and lookups. A Data Set is addressed by its key or, for a system
// set, its slug (legacy spec 4.8 `{dataSetId}`; spec v3 2.1 "Built-in Data Sets: key
// or slug"). System sets (workspace_id NULL) are shared by every workspace; another
// workspace's set is not found (spec v3 5.10: 404, never 403).
import type { Ctx } from '../../context';
import { ApiError, notFound, validationError } from '../../errors';
import { isGuid } from '../../ids';
import type { FieldType, StoredValue } from './field-types';

export interface DataSetRow {
  id: number;
  key: string;
  workspace_id: number | null;
  slug: string | null;
  name: string;
  description: string | null;
  source: 'organisation' | 'system';
  folder_id: number | null;
  created_at: number | null;
  updated_at: number | null;
}

export interface FieldRow {
  id: number;
  key: string;
  data_set_id: number;
  name: string;
  type: FieldType;
  description: string | null;
  position: number;
}

export interface ViewRow {
  id: number;
  key: string;
  data_set_id: number;
  name: string;
  is_default: number;
  filters: string;
  sorts: string;
  hidden_fields: string;
}

export interface RecordRow {
  id: number;
  key: string;
  position: number;
  vals: string;
}

export type Values = Record<string, StoredValue>;

/** A filter, sort and view as stored (the fixture's and the legacy API's names). */
export interface StoredFilter {
  fieldId: string;
  operator: string;
  value?: string;
}
export interface StoredSort {
  fieldId: string;
  direction: 'asc' | 'desc';
  position: number;
}

const SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

/** The Data Set named by `ref` (key or system slug), or 404 DATA_SET_NOT_FOUND. `field` names the parameter for a malformed ref. */
export function findDataSet(ctx: Ctx, ref: string, field = 'dataSetKey'): DataSetRow {
  const r = ref.trim();
  if (!isGuid(r) && !SLUG.test(r)) throw validationError(`${field} must be a Data Set key (GUID) or a system Data Set's slug.`, field);
  const row = isGuid(r)
    ? ctx.db.prepare<[string, number], DataSetRow>('SELECT * FROM data_sets WHERE key = ? COLLATE NOCASE AND (workspace_id = ? OR workspace_id IS NULL)').get(r, ctx.workspace.id)
    : ctx.db.prepare<[string], DataSetRow>("SELECT * FROM data_sets WHERE workspace_id IS NULL AND slug = ? COLLATE NOCASE").get(r);
  if (!row) throw notFound('DATA_SET_NOT_FOUND', `No Data Set ${JSON.stringify(r)} exists in this workspace.`);
  return row;
}

export const dataSetById = (ctx: Ctx, id: number): DataSetRow => ctx.db.prepare<[number], DataSetRow>('SELECT * FROM data_sets WHERE id = ?').get(id)!;

export const fieldsOf = (ctx: Ctx, dsId: number): FieldRow[] =>
  ctx.db.prepare<[number], FieldRow>('SELECT * FROM data_set_fields WHERE data_set_id = ? ORDER BY position, id').all(dsId);

export const viewsOf = (ctx: Ctx, dsId: number): ViewRow[] =>
  ctx.db.prepare<[number], ViewRow>('SELECT * FROM data_set_views WHERE data_set_id = ? ORDER BY is_default DESC, id').all(dsId);

export const recordCount = (ctx: Ctx, dsId: number): number =>
  ctx.db.prepare<[number], { n: number }>('SELECT COUNT(*) AS n FROM data_set_records WHERE data_set_id = ?').get(dsId)!.n;

function badKey(field: string, what: string): ApiError {
  return validationError(`${field} must be the GUID of a ${what} of this Data Set.`, field);
}

export function findField(ctx: Ctx, ds: DataSetRow, key: string, field = 'fieldKey'): FieldRow {
  if (!isGuid(key)) throw badKey(field, 'field');
  const f = ctx.db.prepare<[string, number], FieldRow>('SELECT * FROM data_set_fields WHERE key = ? COLLATE NOCASE AND data_set_id = ?').get(key, ds.id);
  if (!f) throw notFound('DATA_SET_FIELD_NOT_FOUND', `Data Set "${ds.name}" has no field ${key}.`);
  return f;
}

export function findView(ctx: Ctx, ds: DataSetRow, key: string, field = 'viewKey'): ViewRow {
  if (!isGuid(key)) throw badKey(field, 'view');
  const v = ctx.db.prepare<[string, number], ViewRow>('SELECT * FROM data_set_views WHERE key = ? COLLATE NOCASE AND data_set_id = ?').get(key, ds.id);
  if (!v) throw notFound('DATA_SET_VIEW_NOT_FOUND', `Data Set "${ds.name}" has no view ${key}.`);
  return v;
}

export function findRecord(ctx: Ctx, ds: DataSetRow, key: string, field = 'recordKey'): RecordRow {
  if (!isGuid(key)) throw badKey(field, 'record');
  const r = ctx.db.prepare<[string, number], RecordRow>('SELECT id, key, position, vals FROM data_set_records WHERE key = ? COLLATE NOCASE AND data_set_id = ?').get(key, ds.id);
  if (!r) throw notFound('DATA_SET_RECORD_NOT_FOUND', `Data Set "${ds.name}" has no record ${key}.`);
  return r;
}

export const defaultView = (ctx: Ctx, dsId: number): ViewRow =>
  ctx.db.prepare<[number], ViewRow>('SELECT * FROM data_set_views WHERE data_set_id = ? ORDER BY is_default DESC, id LIMIT 1').get(dsId)!;

/** Marks the Data Set changed (organisation sets only: system sets keep updatedAt null). */
export function touch(ctx: Ctx, ds: DataSetRow): void {
  if (ds.source === 'organisation') ctx.db.prepare('UPDATE data_sets SET updated_at = ? WHERE id = ?').run(ctx.now(), ds.id);
}
