// Data Set fields (legacy spec 4.8): create (at most 50; existing records gain it
// empty), rename, retype (refused when any existing value would become invalid;
// to text always succeeds), reposition, delete (the last field stays; a field a
// linked template shows or maps is 409).
import type { Ctx } from '../../context';
import { ApiError, validationError } from '../../errors';
import { cellText, checkValue, type FieldType } from './field-types';
import { connectionsOf, usesField } from './links';
import { MAX_FIELDS } from './limits';
import { checkDescription, checkName, checkType, changeableDataSet, insertField, readableDataSet } from './sets';
import { deleteFieldRow, setFieldDescription, setFieldName, setFieldPositions, setFieldType } from '../../rows/data-set-fields';
import { recordValuesAt, removeRecordValuesAt, setRecordValueAt } from '../../rows/data-set-records';
import { setViewSpec, viewsOfDataSet } from '../../rows/data-set-views';
import { fieldsOf, findField, touch, type DataSetRow, type FieldRow, type StoredFilter, type StoredSort } from './lookup';

export function listFields(ctx: Ctx, ref: string): { ds: DataSetRow; fields: FieldRow[] } {
  const ds = readableDataSet(ctx, ref);
  return { ds, fields: fieldsOf(ctx, ds.id) };
}

export function getField(ctx: Ctx, ref: string, fieldKey: string): FieldRow {
  const ds = readableDataSet(ctx, ref);
  return findField(ctx, ds, fieldKey);
}

function assertUniqueName(fields: FieldRow[], name: string, except?: number): void {
  const clash = fields.find((f) => f.id !== except && f.name.toLowerCase() === name.toLowerCase());
  if (clash) throw validationError(`name "${name}" is already a field of this Data Set; field names are unique within a Data Set.`, 'name');
}

export function createField(ctx: Ctx, ref: string, body: { name?: unknown; type?: unknown; description?: unknown }): FieldRow {
  const name = checkName(body.name, 'name', 'field');
  const type = checkType(body.type, 'type');
  const description = checkDescription(body.description, 'description');
  const ds = changeableDataSet(ctx, ref);
  const fields = fieldsOf(ctx, ds.id);
  if (fields.length >= MAX_FIELDS) throw validationError(`Data Set "${ds.name}" already has ${MAX_FIELDS} fields, the most a Data Set may have.`, 'name');
  assertUniqueName(fields, name);
  touch(ctx, ds);
  return insertField(ctx, ds.id, { name, type, description }, fields.length);
}

/** Re-checks every stored value of the field under the new type; converts them, or refuses without changing anything. */
function retype(ctx: Ctx, ds: DataSetRow, f: FieldRow, type: FieldType): void {
  const path = `$."${f.key}"`;
  const rows = recordValuesAt(ctx.db, ds.id, path);
  const converted: { id: number; json: string }[] = [];
  for (const r of rows) {
    const text = f.type === 'boolean' ? (Number(r.v) === 1 ? 'true' : 'false') : cellText(r.v);
    const c = checkValue(type, text);
    if (!c.ok) throw validationError(`type cannot change from ${f.type} to ${type}: record ${r.key} holds ${JSON.stringify(text)} in field "${f.name}", which ${c.reason}.`, 'type');
    converted.push({ id: r.id, json: JSON.stringify(c.value) });
  }
  for (const c of converted) setRecordValueAt(ctx.db, c.id, path, c.json);
}

/**
 * Legacy PUT: name and type required, position optional. v3 PATCH: any of name, type,
 * description, position; description null clears.
 */
export function updateField(ctx: Ctx, ref: string, fieldKey: string, body: { name?: unknown; type?: unknown; description?: unknown; position?: unknown }, mode: 'put' | 'patch'): FieldRow {
  const name = mode === 'put' || body.name !== undefined ? checkName(body.name, 'name', 'field') : undefined;
  const type = mode === 'put' || body.type !== undefined ? checkType(body.type, 'type') : undefined;
  const description = checkDescription(body.description, 'description');
  let position: number | undefined;
  if (body.position !== undefined && body.position !== null) {
    if (typeof body.position !== 'number' || !Number.isInteger(body.position) || body.position < 0) throw validationError('position must be an integer from 0.', 'position');
    position = body.position;
  }
  const ds = changeableDataSet(ctx, ref);
  const f = findField(ctx, ds, fieldKey);
  const fields = fieldsOf(ctx, ds.id);
  if (name !== undefined) {
    assertUniqueName(fields, name, f.id);
    setFieldName(ctx.db, f.id, name);
  }
  if (type !== undefined && type !== f.type) {
    retype(ctx, ds, f, type);
    setFieldType(ctx.db, f.id, type);
  }
  if (description !== undefined) setFieldDescription(ctx.db, f.id, description);
  if (position !== undefined) {
    const order = fields.filter((x) => x.id !== f.id);
    order.splice(Math.min(position, order.length), 0, f);
    setFieldPositions(ctx.db, order.map((x) => x.id));
  }
  if (name !== undefined || type !== undefined || description !== undefined || position !== undefined) touch(ctx, ds);
  return findField(ctx, ds, f.key);
}

export function deleteField(ctx: Ctx, ref: string, fieldKey: string): void {
  const ds = changeableDataSet(ctx, ref);
  const f = findField(ctx, ds, fieldKey);
  const fields = fieldsOf(ctx, ds.id);
  if (fields.length <= 1) throw validationError(`Field "${f.name}" is the only field of Data Set "${ds.name}"; a Data Set keeps at least one field.`, 'fieldKey');
  const users = connectionsOf(ctx, ds).filter((c) => usesField(c, f, fields));
  if (users.length > 0) {
    const names = [...new Set(users.map((u) => u.templateName))];
    throw new ApiError(409, 'CONFLICT', `Field "${f.name}" is the Display Field or a Table column of linked template fields in ${names.join(', ')}; change those templates first.`, {
      templates: [...new Map(users.map((u) => [u.templateKey, { key: u.templateKey, name: u.templateName }])).values()],
    });
  }
  removeRecordValuesAt(ctx.db, ds.id, `$."${f.key}"`);
  deleteFieldRow(ctx.db, f.id);
  setFieldPositions(ctx.db, fields.filter((x) => x.id !== f.id).map((x) => x.id));
  // Views lose the field's filters, sorts and hidden mark.
  const views = viewsOfDataSet(ctx.db, ds.id);
  const other = (k: string) => k.toLowerCase() !== f.key.toLowerCase();
  for (const v of views) {
    const filters = (JSON.parse(v.filters) as StoredFilter[]).filter((x) => other(x.fieldId));
    const sorts = (JSON.parse(v.sorts) as StoredSort[]).filter((x) => other(x.fieldId));
    const hidden = (JSON.parse(v.hidden_fields) as string[]).filter(other);
    setViewSpec(ctx.db, v.id, JSON.stringify(filters), JSON.stringify(sorts), JSON.stringify(hidden));
  }
  touch(ctx, ds);
}
