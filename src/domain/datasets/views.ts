// Data Set views (legacy spec 4.8): filters (AND), sorts by position, hidden fields.
// At most 20 per set; All Records cannot be renamed or deleted; an update replaces
// filters, sorts and hidden fields entirely (v3 PATCH: each one that is sent). A view
// linked template fields show may be deleted: its name is remembered so template
// validation warns `data_set_link_removed` instead of failing (src/domain/templates/validate.ts).
import type { Ctx } from '../../context';
import { validationError } from '../../errors';
import { newGuid } from '../../ids';
import { MAX_VIEWS } from './limits';
import { checkViewSpec } from './query';
import { fieldsOf, findView, touch, viewsOf, type DataSetRow, type ViewRow } from './lookup';
import { deleteViewRow, insertRemovedView, insertViewRow, removedViewCount, setViewFilters, setViewHiddenFields, setViewName, setViewSorts } from '../../rows/data-set-views';
import { changeableDataSet, checkName, readableDataSet } from './sets';

export function listViews(ctx: Ctx, ref: string): { ds: DataSetRow; views: ViewRow[] } {
  const ds = readableDataSet(ctx, ref);
  return { ds, views: viewsOf(ctx, ds.id) };
}

export function getView(ctx: Ctx, ref: string, viewKey: string): ViewRow {
  return findView(ctx, readableDataSet(ctx, ref), viewKey);
}

function assertUniqueName(views: ViewRow[], name: string, except?: number): void {
  if (views.some((v) => v.id !== except && v.name.toLowerCase() === name.toLowerCase())) {
    throw validationError(`name "${name}" is already a view of this Data Set; template fields link views by name, so view names are unique within a Data Set.`, 'name');
  }
}

type ViewBody = { name?: unknown; filters?: unknown; sorts?: unknown; hiddenFields?: unknown };
type Names = { fieldId: string };

export function createView(ctx: Ctx, ref: string, body: ViewBody, names: Names = { fieldId: 'fieldKey' }): ViewRow {
  const name = checkName(body.name, 'name', 'view');
  const ds = changeableDataSet(ctx, ref);
  const spec = checkViewSpec(fieldsOf(ctx, ds.id), body.filters, body.sorts, body.hiddenFields, names);
  const views = viewsOf(ctx, ds.id);
  if (views.length >= MAX_VIEWS) throw validationError(`Data Set "${ds.name}" already has ${MAX_VIEWS} views, the most a Data Set may have.`, 'name');
  assertUniqueName(views, name);
  const key = newGuid();
  insertViewRow(ctx.db, { key, dataSetId: ds.id, name, isDefault: false, filters: JSON.stringify(spec.filters), sorts: JSON.stringify(spec.sorts), hiddenFields: JSON.stringify(spec.hiddenFields) });
  touch(ctx, ds);
  return findView(ctx, ds, key);
}

function assertNotDefault(v: ViewRow, what: string): void {
  if (v.is_default === 1) throw validationError(`The ${v.name} view cannot be ${what}.`, 'viewKey');
}

/** Legacy PUT: name required, filters, sorts and hiddenFields replaced (absent = none). v3 PATCH: each one sent replaces. */
export function updateView(ctx: Ctx, ref: string, viewKey: string, body: ViewBody, mode: 'put' | 'patch', names: Names = { fieldId: 'fieldKey' }): ViewRow {
  const name = mode === 'put' || body.name !== undefined ? checkName(body.name, 'name', 'view') : undefined;
  const ds = changeableDataSet(ctx, ref);
  const v = findView(ctx, ds, viewKey);
  // All Records cannot be renamed (legacy 3, 4.8), but "update replaces filters, sorts and hidden
  // fields entirely" holds for it too: the export's default view carries what it is given.
  if (v.is_default === 1 && name !== undefined && name.toLowerCase() !== v.name.toLowerCase()) {
    throw validationError(`The ${v.name} view cannot be renamed; send its name as it is ("${v.name}") to change its filters, sorts and hidden fields.`, 'name');
  }
  const put = mode === 'put';
  const spec = checkViewSpec(fieldsOf(ctx, ds.id), body.filters, body.sorts, body.hiddenFields, names);
  if (name !== undefined && v.is_default !== 1) {
    assertUniqueName(viewsOf(ctx, ds.id), name, v.id);
    if (name !== v.name) rememberRemoved(ctx, ds, v);
    setViewName(ctx.db, v.id, name);
  }
  if (put || body.filters !== undefined) setViewFilters(ctx.db, v.id, JSON.stringify(spec.filters));
  if (put || body.sorts !== undefined) setViewSorts(ctx.db, v.id, JSON.stringify(spec.sorts));
  if (put || body.hiddenFields !== undefined) setViewHiddenFields(ctx.db, v.id, JSON.stringify(spec.hiddenFields));
  if (put || (name !== undefined && v.is_default !== 1) || body.filters !== undefined || body.sorts !== undefined || body.hiddenFields !== undefined) touch(ctx, ds);
  return findView(ctx, ds, v.key);
}

function rememberRemoved(ctx: Ctx, ds: DataSetRow, v: ViewRow): void {
  insertRemovedView(ctx.db, ds.id, v.name, ctx.now());
}

export function deleteView(ctx: Ctx, ref: string, viewKey: string): void {
  const ds = changeableDataSet(ctx, ref);
  const v = findView(ctx, ds, viewKey);
  assertNotDefault(v, 'deleted');
  rememberRemoved(ctx, ds, v);
  deleteViewRow(ctx.db, v.id);
  touch(ctx, ds);
}

/** Whether a view of this name was deleted or renamed (template validation warns instead of refusing). */
export function wasViewRemoved(db: Ctx['db'], dataSetId: number, name: string): boolean {
  return removedViewCount(db, dataSetId, name.trim()) > 0;
}
