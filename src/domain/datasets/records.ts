// Data Set records (legacy spec 4.8): list with a view, create, replace (legacy PUT:
// omitted fields are cleared) or change (v3 PATCH: only what is sent), delete, bulk
// create (append or replace, atomic) and bulk delete. Events (spec v3 6.3): created,
// updated (changed fields only), deleted; bulk create raises none, bulk delete one per
// record. Every write runs in the caller's transaction, the outbox rows with it.
import type { Ctx } from '../../context';
import { validationError } from '../../errors';
import { isGuid, newGuid } from '../../ids';
import { checkValue, recordBytes, type StoredValue } from './field-types';
import { MAX_RECORD_BYTES, MAX_RECORDS } from './limits';
import { allRecords, queryRecords } from './query';
import { fieldsOf, findRecord, findView, recordCount, touch, type DataSetRow, type FieldRow, type RecordRow, type Values, type ViewRow } from './lookup';
import { deleteRecordRow, deleteRecordsOf, insertRecordRow, nextRecordPosition, setRecordVals } from '../../rows/data-set-records';
import { changeableDataSet, readableDataSet } from './sets';

export interface RecordOut {
  key: string;
  position: number;
  values: Values;
}

/** Values in field order, hidden fields left out (legacy spec 4.8 `viewId` "hidden fields"). */
export function recordOut(r: RecordRow, fields: FieldRow[], hidden?: Set<string>): RecordOut {
  const stored = JSON.parse(r.vals) as Values;
  const values: Values = {};
  for (const f of fields) {
    if (hidden?.has(f.key.toLowerCase())) continue;
    const v = stored[f.key];
    if (v !== undefined && v !== null && v !== '') values[f.key] = v;
  }
  return { key: r.key, position: r.position, values };
}

/**
 * Checks a `values` object against the set's fields with the one validator. `base` is
 * what a partial (PATCH) change starts from; null clears there. Field keys of another
 * set, non-objects and invalid values are 400 naming `values.<fieldKey>`.
 */
export function checkValues(fields: FieldRow[], raw: unknown, path = 'values', base?: Values): Values {
  if (raw === undefined || raw === null) {
    if (base) return base;
    raw = {};
  }
  if (typeof raw !== 'object' || Array.isArray(raw)) throw validationError(`${path} must be an object keyed by field key.`, path);
  const byKey = new Map(fields.map((f) => [f.key.toLowerCase(), f]));
  const out: Values = base ? { ...base } : {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    const f = byKey.get(k.toLowerCase());
    if (!f) throw validationError(`${path}.${k} is not a field of this Data Set${isGuid(k) ? '' : ': values are keyed by field key (GUID)'}.`, `${path}.${k}`);
    const c = checkValue(f.type, v);
    if (!c.ok) throw validationError(`${path}.${k} (field "${f.name}", ${f.type}) ${c.reason}.`, `${path}.${k}`);
    if (c.value === undefined) delete out[f.key];
    else out[f.key] = c.value;
  }
  const bytes = recordBytes(out);
  if (bytes > MAX_RECORD_BYTES) throw validationError(`${path} holds ${bytes.toLocaleString('en')} bytes of cell text; a record holds at most 5 KB (${MAX_RECORD_BYTES.toLocaleString('en')} bytes).`, path);
  return out;
}

function nextPosition(ctx: Ctx, dsId: number): number {
  return nextRecordPosition(ctx.db, dsId);
}

function assertRoom(ctx: Ctx, ds: DataSetRow, adding: number, field: string): void {
  const n = recordCount(ctx, ds.id);
  if (n + adding > MAX_RECORDS) {
    throw validationError(`Data Set "${ds.name}" holds ${n.toLocaleString('en')} records; adding ${adding.toLocaleString('en')} would pass the limit of ${MAX_RECORDS.toLocaleString('en')} records.`, field);
  }
}

export interface RecordPage {
  ds: DataSetRow;
  fields: FieldRow[];
  records: RecordOut[];
  total: number;
}

/** A page of records: the view's filters, sorts and hidden fields, or every record in creation order. */
export function listRecords(ctx: Ctx, ref: string, opts: { viewKey?: string; viewField?: string; limit: number; offset: number }): RecordPage {
  const ds = readableDataSet(ctx, ref);
  const fields = fieldsOf(ctx, ds.id);
  const view = opts.viewKey !== undefined ? findView(ctx, ds, opts.viewKey, opts.viewField) : undefined;
  const spec = view ? { filters: JSON.parse(view.filters), sorts: JSON.parse(view.sorts) } : { filters: [], sorts: [] };
  const hidden = view ? new Set((JSON.parse(view.hidden_fields) as string[]).map((k) => k.toLowerCase())) : undefined;
  const { rows, total } = queryRecords(ctx, ds.id, fields, spec, opts.limit, opts.offset);
  return { ds, fields, records: rows.map((r) => recordOut(r, fields, hidden)), total };
}

/** Every record passing a view, in its order, with its hidden fields left out. */
export function viewRecordsOut(ctx: Ctx, ds: DataSetRow, fields: FieldRow[], view: ViewRow): RecordOut[] {
  const hidden = new Set((JSON.parse(view.hidden_fields) as string[]).map((k) => k.toLowerCase()));
  return allRecords(ctx, ds.id, fields, { filters: JSON.parse(view.filters), sorts: JSON.parse(view.sorts) }).map((r) => recordOut(r, fields, hidden));
}

export function getRecord(ctx: Ctx, ref: string, recordKey: string): RecordOut {
  const ds = readableDataSet(ctx, ref);
  return recordOut(findRecord(ctx, ds, recordKey), fieldsOf(ctx, ds.id));
}

export function createRecord(ctx: Ctx, ref: string, body: { values?: unknown }): RecordOut {
  const ds = changeableDataSet(ctx, ref);
  const fields = fieldsOf(ctx, ds.id);
  const values = checkValues(fields, body.values);
  assertRoom(ctx, ds, 1, 'values');
  const key = newGuid();
  const position = nextPosition(ctx, ds.id);
  const id = insertRecordRow(ctx.db, { key, dataSetId: ds.id, position, vals: JSON.stringify(values), createdAt: ctx.now() });
  touch(ctx, ds);
  ctx.hooks.event?.(ctx, 'data_set.record.created', { recordId: id });
  return recordOut({ id, key, position, vals: JSON.stringify(values) }, fields);
}

/** Legacy PUT replaces every value (omitted fields cleared); v3 PATCH merges (null clears). */
export function updateRecord(ctx: Ctx, ref: string, recordKey: string, body: { values?: unknown }, mode: 'put' | 'patch'): RecordOut {
  const ds = changeableDataSet(ctx, ref);
  const r = findRecord(ctx, ds, recordKey);
  const fields = fieldsOf(ctx, ds.id);
  const before = JSON.parse(r.vals) as Values;
  const after = checkValues(fields, body.values, 'values', mode === 'patch' ? before : undefined);
  const changes: Record<string, { before: StoredValue | null; after: StoredValue | null }> = {};
  for (const f of fields) {
    const b = before[f.key] ?? null;
    const a = after[f.key] ?? null;
    if (b !== a) changes[f.key] = { before: b, after: a };
  }
  const json = JSON.stringify(after);
  if (Object.keys(changes).length > 0) {
    setRecordVals(ctx.db, r.id, json);
    touch(ctx, ds);
    ctx.hooks.event?.(ctx, 'data_set.record.updated', { recordId: r.id, changes });
  }
  return recordOut({ ...r, vals: json }, fields);
}

export function deleteRecord(ctx: Ctx, ref: string, recordKey: string): void {
  const ds = changeableDataSet(ctx, ref);
  const r = findRecord(ctx, ds, recordKey);
  ctx.hooks.event?.(ctx, 'data_set.record.deleted', { recordId: r.id });
  deleteRecordRow(ctx.db, r.id);
  touch(ctx, ds);
}

export interface BulkResult {
  mode: 'append' | 'replace';
  created: number;
  recordCount: number;
}

/** Inserts checked values in order (bulk create, CSV import): no per-record events (spec v3 6.3). */
export function insertMany(ctx: Ctx, ds: DataSetRow, rows: Values[], replace: boolean): void {
  if (replace) deleteRecordsOf(ctx.db, ds.id);
  let position = replace ? 0 : nextPosition(ctx, ds.id);
  const now = ctx.now();
  for (const v of rows) insertRecordRow(ctx.db, { key: newGuid(), dataSetId: ds.id, position: position++, vals: JSON.stringify(v), createdAt: now });
  touch(ctx, ds);
}

export function bulkCreate(ctx: Ctx, ref: string, body: { mode?: unknown; records?: unknown }): BulkResult {
  const mode = body.mode;
  if (mode === undefined || mode === null || mode === '') throw validationError('mode is required: append or replace.', 'mode');
  if (mode !== 'append' && mode !== 'replace') throw validationError(`mode ${JSON.stringify(mode)} is not a mode; use append or replace.`, 'mode');
  if (body.records === undefined || body.records === null) throw validationError('records is required: an array of {values}, at least one.', 'records');
  if (!Array.isArray(body.records)) throw validationError('records must be an array of {values}.', 'records');
  if (body.records.length === 0) throw validationError('records must hold at least one record.', 'records');
  const ds = changeableDataSet(ctx, ref);
  const fields = fieldsOf(ctx, ds.id);
  const list = body.records as unknown[];
  // The count first: a body of a million records is refused before one is checked (docs/reliability.md 9).
  if (mode === 'replace') {
    if (list.length > MAX_RECORDS) throw validationError(`records holds ${list.length.toLocaleString('en')} records; a Data Set holds at most ${MAX_RECORDS.toLocaleString('en')}.`, 'records');
  } else assertRoom(ctx, ds, list.length, 'records');
  const checked = list.map((x, i) => {
    if (x === null || typeof x !== 'object' || Array.isArray(x)) throw validationError(`records[${i}] must be an object {values}.`, `records[${i}]`);
    return checkValues(fields, (x as { values?: unknown }).values, `records[${i}].values`);
  });
  insertMany(ctx, ds, checked, mode === 'replace');
  return { mode, created: checked.length, recordCount: recordCount(ctx, ds.id) };
}

/** Bulk delete: every key must name a record of the set (nothing is deleted otherwise); one deleted event each. */
export function bulkDelete(ctx: Ctx, ref: string, body: { recordKeys?: unknown }, name = 'recordKeys'): number {
  const keys = body.recordKeys;
  if (keys === undefined || keys === null) throw validationError(`${name} is required: an array of record keys.`, name);
  if (!Array.isArray(keys)) throw validationError(`${name} must be an array of record keys.`, name);
  // A set holds at most MAX_RECORDS records: a longer list is refused before a key is read (docs/reliability.md 9).
  if (keys.length > MAX_RECORDS) throw validationError(`${name} names ${keys.length.toLocaleString('en')} keys; a Data Set holds at most ${MAX_RECORDS.toLocaleString('en')} records.`, name);
  keys.forEach((k, i) => {
    if (!isGuid(k)) throw validationError(`${name}[${i}] must be a record key (GUID).`, `${name}[${i}]`);
  });
  const ds = changeableDataSet(ctx, ref);
  const seen = new Set<string>();
  const rows = (keys as string[]).filter((k) => !seen.has(k.toLowerCase()) && seen.add(k.toLowerCase())).map((k, i) => findRecord(ctx, ds, k, `${name}[${i}]`));
  for (const r of rows) {
    ctx.hooks.event?.(ctx, 'data_set.record.deleted', { recordId: r.id });
    deleteRecordRow(ctx.db, r.id);
  }
  if (rows.length) touch(ctx, ds);
  return rows.length;
}
