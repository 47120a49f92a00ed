// Data Sets themselves (legacy spec 4.8 list, create, get, update, delete; spec v3 4.7).
// Both APIs call these with raw bodies; messages name the v3 property paths.
import type { Ctx } from '../../context';
import { ApiError, validationError } from '../../errors';
import { newGuid } from '../../ids';
import { assertCanChangeDataSet, assertCanCreateDataSet, assertCanDeleteDataSet, assertCanReadDataSets } from './access';
import { FIELD_TYPES, isFieldType, type FieldType } from './field-types';
import { connectionsOf, linkedTemplates } from './links';
import { DEFAULT_VIEW_NAME, MAX_DESCRIPTION, MAX_FIELDS, MAX_NAME } from './limits';
import { dataSetById, fieldsOf, findDataSet, recordCount, viewsOf, type DataSetRow, type FieldRow, type ViewRow } from './lookup';
import { dataSetsWithCounts, deleteDataSetRow, insertDataSetRow, setDataSetDescription, setDataSetName, setDataSetUpdatedAt } from '../../rows/data-sets';
import { insertFieldRow } from '../../rows/data-set-fields';
import { insertViewRow } from '../../rows/data-set-views';

export interface DataSetFull {
  row: DataSetRow;
  fields: FieldRow[];
  views: ViewRow[];
  recordCount: number;
}

export interface DataSetSummary {
  row: DataSetRow;
  fieldCount: number;
  recordCount: number;
}

/** A required name of at most 200 characters, trimmed. */
export function checkName(v: unknown, field: string, what: string): string {
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) throw validationError(`${field} is required: the ${what} name.`, field);
  if (typeof v !== 'string') throw validationError(`${field} must be a string.`, field);
  const s = v.trim();
  if (s.length > MAX_NAME) throw validationError(`${field} must be at most ${MAX_NAME} characters (it has ${s.length}).`, field);
  return s;
}

/** An optional description of at most 1,000 characters; empty reads as none. */
export function checkDescription(v: unknown, field: string): string | null | undefined {
  if (v === undefined) return undefined;
  if (v === null) return null;
  if (typeof v !== 'string') throw validationError(`${field} must be a string.`, field);
  if (v.length > MAX_DESCRIPTION) throw validationError(`${field} must be at most ${MAX_DESCRIPTION.toLocaleString('en')} characters (it has ${v.length}).`, field);
  return v.trim() === '' ? null : v;
}

export function checkType(v: unknown, field: string): FieldType {
  if (v === undefined || v === null || v === '') throw validationError(`${field} is required: one of ${FIELD_TYPES.join(', ')}.`, field);
  if (!isFieldType(v)) throw validationError(`${field} ${JSON.stringify(v)} is not a field type; use one of ${FIELD_TYPES.join(', ')}.`, field);
  return v;
}

export function full(ctx: Ctx, row: DataSetRow): DataSetFull {
  return { row, fields: fieldsOf(ctx, row.id), views: viewsOf(ctx, row.id), recordCount: recordCount(ctx, row.id) };
}

/** A readable Data Set (lookup first, then the read rule: spec v3 5.10). */
export function readableDataSet(ctx: Ctx, ref: string, field?: string): DataSetRow {
  const ds = findDataSet(ctx, ref, field);
  assertCanReadDataSets(ctx, ds);
  return ds;
}

/** A Data Set the key may change (system sets 403). */
export function changeableDataSet(ctx: Ctx, ref: string, field?: string): DataSetRow {
  const ds = findDataSet(ctx, ref, field);
  assertCanReadDataSets(ctx, ds);
  assertCanChangeDataSet(ctx, ds);
  return ds;
}

/** Organisation sets by name, then system sets (legacy spec 4.8: "all organisation Data Sets and system ones"). */
export function listDataSets(ctx: Ctx): DataSetSummary[] {
  assertCanReadDataSets(ctx);
  const rows = dataSetsWithCounts(ctx.db, ctx.workspace.id);
  return rows.filter((r) => r.folder_id == null || ctx.actor.kind === 'workspace' || ctx.actor.isAdmin || canSee(ctx, r)).map((r) => ({ row: r, fieldCount: r.field_count, recordCount: r.record_count }));
}

function canSee(ctx: Ctx, r: DataSetRow): boolean {
  try {
    assertCanReadDataSets(ctx, r);
    return true;
  } catch {
    return false;
  }
}

export function insertField(ctx: Ctx, dsId: number, f: { name: string; type: FieldType; description?: string | null }, position: number): FieldRow {
  const key = newGuid();
  const id = insertFieldRow(ctx.db, { key, dataSetId: dsId, name: f.name, type: f.type, description: f.description ?? null, position });
  return { id, key, data_set_id: dsId, name: f.name, type: f.type, description: f.description ?? null, position };
}

/** Checks a `fields` array of a create body: at least one, at most 50, names unique. */
export function checkFieldList(v: unknown, field = 'fields'): { name: string; type: FieldType; description?: string | null }[] {
  if (!Array.isArray(v)) throw validationError(`${field} must be an array of {name, type, description}.`, field);
  if (v.length === 0) throw validationError(`${field} must hold at least one field (or be omitted for a single Text field named Name).`, field);
  if (v.length > MAX_FIELDS) throw validationError(`${field} holds ${v.length} fields; a Data Set has at most ${MAX_FIELDS}.`, field);
  const seen = new Set<string>();
  return v.map((x, i) => {
    if (x === null || typeof x !== 'object' || Array.isArray(x)) throw validationError(`${field}[${i}] must be an object {name, type, description}.`, `${field}[${i}]`);
    const o = x as Record<string, unknown>;
    const name = checkName(o.name, `${field}[${i}].name`, 'field');
    if (seen.has(name.toLowerCase())) throw validationError(`${field}[${i}].name "${name}" is used twice; field names are unique within a Data Set.`, `${field}[${i}].name`);
    seen.add(name.toLowerCase());
    return { name, type: checkType(o.type, `${field}[${i}].type`), description: checkDescription(o.description, `${field}[${i}].description`) };
  });
}

/** Creates an organisation set, Unfiled, with its default All Records view (legacy spec 4.8). */
export function insertDataSet(ctx: Ctx, name: string, description: string | null | undefined, fields: { name: string; type: FieldType; description?: string | null }[]): DataSetRow {
  const now = ctx.now();
  const id = insertDataSetRow(ctx.db, { key: newGuid(), workspaceId: ctx.workspace.id, name, description: description ?? null, now });
  fields.forEach((f, i) => insertField(ctx, id, f, i));
  insertViewRow(ctx.db, { key: newGuid(), dataSetId: id, name: DEFAULT_VIEW_NAME, isDefault: true, filters: '[]', sorts: '[]', hiddenFields: '[]' });
  return dataSetById(ctx, id);
}

export function createDataSet(ctx: Ctx, body: { name?: unknown; description?: unknown; fields?: unknown }): DataSetFull {
  const name = checkName(body.name, 'name', 'Data Set');
  const description = checkDescription(body.description, 'description');
  const fields = body.fields === undefined || body.fields === null ? [{ name: 'Name', type: 'text' as const }] : checkFieldList(body.fields);
  assertCanCreateDataSet(ctx);
  return full(ctx, insertDataSet(ctx, name, description, fields));
}

export function getDataSet(ctx: Ctx, ref: string): DataSetFull {
  return full(ctx, readableDataSet(ctx, ref));
}

/** Legacy PUT sets name and description (a description left out is cleared); v3 PATCH changes only what is sent. */
export function updateDataSet(ctx: Ctx, ref: string, body: { name?: unknown; description?: unknown }, mode: 'put' | 'patch'): DataSetFull {
  const name = mode === 'put' || body.name !== undefined ? checkName(body.name, 'name', 'Data Set') : undefined;
  const description = checkDescription(mode === 'put' && body.description === undefined ? null : body.description, 'description');
  const ds = changeableDataSet(ctx, ref);
  const changed = (name !== undefined && name !== ds.name) || (description !== undefined && description !== ds.description);
  if (changed) {
    if (name !== undefined) setDataSetName(ctx.db, ds.id, name);
    if (description !== undefined) setDataSetDescription(ctx.db, ds.id, description);
    setDataSetUpdatedAt(ctx.db, ds.id, ctx.now());
  }
  return full(ctx, dataSetById(ctx, ds.id));
}

/**
 * Delete (legacy spec 4.8): linked to template fields and not forced is 409 with the
 * templates; forced, the set goes and the links it fed answer with nothing.
 */
export function deleteDataSet(ctx: Ctx, ref: string, force: boolean): void {
  const ds = findDataSet(ctx, ref);
  assertCanReadDataSets(ctx, ds);
  assertCanDeleteDataSet(ctx, ds);
  const linked = linkedTemplates(connectionsOf(ctx, ds));
  if (linked.length > 0 && !force) {
    throw new ApiError(
      409,
      'CONFLICT',
      `Data Set "${ds.name}" is linked to fields of ${linked.length} template${linked.length === 1 ? '' : 's'} (${linked.map((t) => t.name).join(', ')}); delete with force=true to delete it and clear those links.`,
      { templates: linked },
    );
  }
  deleteDataSetRow(ctx.db, ds.id);
}
