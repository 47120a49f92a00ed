// Data Set rows and lookups. A Data Set is addressed by its key or, for a system
// set, its slug (legacy spec 4.8 `{dataSetId}`; spec v3 2.1 "Built-in Data Sets: key
// or slug"). System sets (workspace_id NULL) are shared by every workspace; another
// workspace's set is not found (spec v3 5.10: 404, never 403).
import type { Ctx } from '../../context';
import { ApiError, notFound, validationError } from '../../errors';
import { isGuid } from '../../ids';
import type { StoredValue } from './field-types';
import { dataSetById as dataSetRowById, dataSetByKey, setDataSetUpdatedAt, systemDataSetBySlug, type DataSetRow } from '../../rows/data-sets';
import { fieldByKey, fieldsOfDataSet, type FieldRow } from '../../rows/data-set-fields';
import { defaultViewOf, viewByKey, viewsOfDataSet, type ViewRow } from '../../rows/data-set-views';
import { recordByKey, recordCountOf, type RecordRow } from '../../rows/data-set-records';

export type { DataSetRow } from '../../rows/data-sets';
export type { FieldRow } from '../../rows/data-set-fields';
export type { ViewRow } from '../../rows/data-set-views';
export type { RecordRow } from '../../rows/data-set-records';

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

/** A system Data Set's slug (the operation table declares it: src/operations/data-sets/declare.ts). */
export const SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

/** The Data Set named by `ref` (key or system slug), or 404 DATA_SET_NOT_FOUND. `field` names the parameter for a malformed ref. */
export function findDataSet(ctx: Ctx, ref: string, field = 'dataSetKey'): DataSetRow {
  const r = ref.trim();
  if (!isGuid(r) && !SLUG.test(r)) throw validationError(`${field} must be a Data Set key (GUID) or a system Data Set's slug.`, field);
  const row = isGuid(r) ? dataSetByKey(ctx.db, ctx.workspace.id, r) : systemDataSetBySlug(ctx.db, r);
  if (!row) throw notFound('DATA_SET_NOT_FOUND', `No Data Set ${JSON.stringify(r)} exists in this workspace.`);
  return row;
}

export const dataSetById = (ctx: Ctx, id: number): DataSetRow => dataSetRowById(ctx.db, id)!;

export const fieldsOf = (ctx: Ctx, dsId: number): FieldRow[] => fieldsOfDataSet(ctx.db, dsId);

export const viewsOf = (ctx: Ctx, dsId: number): ViewRow[] => viewsOfDataSet(ctx.db, dsId);

export const recordCount = (ctx: Ctx, dsId: number): number => recordCountOf(ctx.db, dsId);

function badKey(field: string, what: string): ApiError {
  return validationError(`${field} must be the GUID of a ${what} of this Data Set.`, field);
}

export function findField(ctx: Ctx, ds: DataSetRow, key: string, field = 'fieldKey'): FieldRow {
  if (!isGuid(key)) throw badKey(field, 'field');
  const f = fieldByKey(ctx.db, ds.id, key);
  if (!f) throw notFound('DATA_SET_FIELD_NOT_FOUND', `Data Set "${ds.name}" has no field ${key}.`);
  return f;
}

export function findView(ctx: Ctx, ds: DataSetRow, key: string, field = 'viewKey'): ViewRow {
  if (!isGuid(key)) throw badKey(field, 'view');
  const v = viewByKey(ctx.db, ds.id, key);
  if (!v) throw notFound('DATA_SET_VIEW_NOT_FOUND', `Data Set "${ds.name}" has no view ${key}.`);
  return v;
}

export function findRecord(ctx: Ctx, ds: DataSetRow, key: string, field = 'recordKey'): RecordRow {
  if (!isGuid(key)) throw badKey(field, 'record');
  const r = recordByKey(ctx.db, ds.id, key);
  if (!r) throw notFound('DATA_SET_RECORD_NOT_FOUND', `Data Set "${ds.name}" has no record ${key}.`);
  return r;
}

export const defaultView = (ctx: Ctx, dsId: number): ViewRow => defaultViewOf(ctx.db, dsId)!;

/** Marks the Data Set changed (organisation sets only: system sets keep updatedAt null). */
export function touch(ctx: Ctx, ds: DataSetRow): void {
  if (ds.source === 'organisation') setDataSetUpdatedAt(ctx.db, ds.id, ctx.now());
}
