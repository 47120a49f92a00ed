// Field routes under .../tasks/{taskKey}/fields (spec v3 4.3 "Fields", 5.8 last row; bodies in
// docs/tasks.md). Answering is what satisfies a required field. Writes: read access, then the
// field (404 FIELD_NOT_FOUND), then the answer (400), then the workspace key and exclusive
// assignment (403), then a halted task (409).
import type { Ctx } from '../../context';
import { conflict, notFound, validationError } from '../../errors';
import { actorName, recordActivity } from '../activity';
import { assertCanAnswer } from '../access/checklists';
import type { DocField } from '../../rows/template-document';
import { decodeFile, fieldFiles, fileView, storeFile, type FileInput } from './files';
import { deleteFile, fileInfoById, fileOfField } from '../../rows/files';
import { deleteFieldValue, replaceFieldValue } from '../../rows/field-values';
import { validateAnswer, validateRow, tableColumns } from './field-values';
import { assertTaskReadable } from './guard';
import { onDateFieldChanged } from './due';
import { refreshChecklistStatus } from './status';
import { answerableFields, fieldName, type TaskTarget } from './target';
import { fieldView, fieldsOf, stateOf, storedAnswers } from './views';
import { HALTED_FIELDS_MESSAGE } from '../refusal-texts';

export const MAX_FIELDS_PER_CALL = 50;

export function findField(t: TaskTarget, fieldKey: string): DocField {
  const f = answerableFields(t).find((x) => x.id!.toLowerCase() === fieldKey.toLowerCase());
  if (!f) throw notFound('FIELD_NOT_FOUND', `No field with key ${fieldKey} exists on this task.`);
  return f;
}

export function listFields(ctx: Ctx, t: TaskTarget) {
  assertTaskReadable(ctx, t);
  return { fields: fieldsOf(ctx, t, stateOf(ctx, t)) };
}

/** One field, also when a condition hides it (docs/tasks.md). */
export function getField(ctx: Ctx, t: TaskTarget, fieldKey: string) {
  assertTaskReadable(ctx, t);
  const f = findField(t, fieldKey);
  return fieldView(ctx, t, f, storedAnswers(ctx, t.task.id).get(f.id!.toLowerCase()));
}

function assertWritable(ctx: Ctx, t: TaskTarget): void {
  assertCanAnswer(ctx, t.task);
  if (stateOf(ctx, t).haltedTasks.has(t.task.key.toLowerCase())) {
    throw conflict(HALTED_FIELDS_MESSAGE);
  }
}

const where = (t: TaskTarget) => ({ checklistId: t.task.checklist_id ?? t.task.attached_checklist_id, taskId: t.task.id });

function afterWrite(ctx: Ctx, t: TaskTarget): void {
  if (t.task.checklist_id !== null) refreshChecklistStatus(ctx, t.task.checklist_id);
}

function writeAnswer(ctx: Ctx, t: TaskTarget, f: DocField, value: unknown): boolean {
  const before = storedAnswers(ctx, t.task.id).get(f.id!.toLowerCase());
  if (JSON.stringify(before ?? null) === JSON.stringify(value)) return false;
  if (value === null) deleteFieldValue(ctx.db, t.task.id, f.id!);
  else replaceFieldValue(ctx.db, t.task.id, f.id!, JSON.stringify(value), ctx.now(), ctx.actor.member.id);
  recordActivity(ctx, {
    ...where(t),
    action: value === null ? 'field.cleared' : 'field.answered',
    text: value === null ? `${actorName(ctx)} cleared ${fieldName(t.docTask, f)}.` : `${actorName(ctx)} answered ${fieldName(t.docTask, f)}.`,
    data: { fieldKey: f.id, value },
  });
  if (f.type === 'Date') onDateFieldChanged(ctx, t, f.id!, value);
  return true;
}

/** PUT .../fields/{fieldKey} {value}: answers one field (null clears). Answers the field. */
export function answerField(ctx: Ctx, t: TaskTarget, fieldKey: string, value: unknown) {
  assertTaskReadable(ctx, t);
  const f = findField(t, fieldKey);
  const stored = validateAnswer(ctx, f, value, 'value');
  assertWritable(ctx, t);
  if (writeAnswer(ctx, t, f, stored)) afterWrite(ctx, t);
  return fieldView(ctx, t, f, storedAnswers(ctx, t.task.id).get(f.id!.toLowerCase()));
}

/** PATCH .../fields {fields: [{key, value}]}: up to 50 answers, all or nothing. Answers every visible field. */
export function answerFields(ctx: Ctx, t: TaskTarget, entries: { key: string; value: unknown }[]) {
  assertTaskReadable(ctx, t);
  const fields = answerableFields(t);
  const seen = new Set<string>();
  const writes = entries.map((e, i) => {
    const k = e.key.toLowerCase();
    if (seen.has(k)) throw validationError(`fields[${i}].key ${e.key} is given more than once.`, `fields[${i}].key`);
    seen.add(k);
    const f = fields.find((x) => x.id!.toLowerCase() === k);
    if (!f) throw validationError(`fields[${i}].key ${e.key} names no field of this task.`, `fields[${i}].key`);
    return { f, value: validateAnswer(ctx, f, e.value, `fields[${i}].value`) };
  });
  assertWritable(ctx, t);
  let changed = false;
  for (const w of writes) changed = writeAnswer(ctx, t, w.f, w.value) || changed;
  if (changed) afterWrite(ctx, t);
  return { fields: fieldsOf(ctx, t, stateOf(ctx, t)) };
}

// ── files of a File Upload field ────────────────────────────────────────────────

function fileField(t: TaskTarget, fieldKey: string): DocField {
  const f = findField(t, fieldKey);
  if (f.type !== 'FileUpload') throw validationError(`fieldKey names a ${f.type} field; files belong to File Upload fields.`, 'fieldKey');
  return f;
}

export function listFiles(ctx: Ctx, t: TaskTarget, fieldKey: string) {
  assertTaskReadable(ctx, t);
  const f = fileField(t, fieldKey);
  return { files: fieldFiles(ctx, t.task.id, f.id!) };
}

/** POST .../files {name, contentType, data}: 201 with the file; fires file_uploaded (6). */
export function addFile(ctx: Ctx, t: TaskTarget, fieldKey: string, file: FileInput) {
  assertTaskReadable(ctx, t);
  const f = fileField(t, fieldKey);
  const decoded = decodeFile(file, '');
  assertWritable(ctx, t);
  const id = storeFile(ctx, t.task.id, f.id!, decoded);
  recordActivity(ctx, { ...where(t), action: 'file.uploaded', text: `${actorName(ctx)} uploaded ${decoded.name} to ${fieldName(t.docTask, f)}.`, data: { fieldKey: f.id, fileId: id } });
  ctx.hooks.event?.(ctx, 'file_uploaded', { taskId: t.task.id, fieldKey: f.id!, fileId: id });
  afterWrite(ctx, t);
  const row = fileInfoById(ctx.db, id)!;
  return fileView(ctx, row);
}

/** DELETE .../files/{fileId}: 204. */
export function removeFile(ctx: Ctx, t: TaskTarget, fieldKey: string, fileId: number): void {
  assertTaskReadable(ctx, t);
  const f = fileField(t, fieldKey);
  const row = fileOfField(ctx.db, fileId, t.task.id, f.id!);
  if (!row) throw notFound('FILE_NOT_FOUND', `No file with id ${fileId} is in this field.`);
  assertWritable(ctx, t);
  deleteFile(ctx.db, row.id);
  recordActivity(ctx, { ...where(t), action: 'file.removed', text: `${actorName(ctx)} removed ${row.name} from ${fieldName(t.docTask, f)}.`, data: { fieldKey: f.id, fileId } });
  afterWrite(ctx, t);
}

// ── rows of a Table field ───────────────────────────────────────────────────────

function tableField(t: TaskTarget, fieldKey: string): DocField {
  const f = findField(t, fieldKey);
  if (f.type !== 'Table') throw validationError(`fieldKey names a ${f.type} field; rows belong to Table fields.`, 'fieldKey');
  return f;
}

const currentRows = (ctx: Ctx, t: TaskTarget, f: DocField) => (storedAnswers(ctx, t.task.id).get(f.id!.toLowerCase()) as (string | null)[][] | undefined) ?? [];

function saveRows(ctx: Ctx, t: TaskTarget, f: DocField, rows: (string | null)[][]) {
  assertWritable(ctx, t);
  if (writeAnswer(ctx, t, f, rows.length ? rows : null)) afterWrite(ctx, t);
  return fieldView(ctx, t, f, storedAnswers(ctx, t.task.id).get(f.id!.toLowerCase()));
}

/** POST .../rows {rows: [[cell, ...], ...]}: appends rows. Answers the field. */
export function addRows(ctx: Ctx, t: TaskTarget, fieldKey: string, rows: unknown[]) {
  assertTaskReadable(ctx, t);
  const f = tableField(t, fieldKey);
  const add = rows.map((r, i) => validateRow(f, r, `rows[${i}]`));
  const all = [...currentRows(ctx, t, f), ...add];
  if (all.length > 1000) throw validationError('rows would make the table longer than 1,000 rows.', 'rows');
  return saveRows(ctx, t, f, all);
}

/** DELETE .../rows?rowIndexes=1,3: removes rows (1-based, as in the Table payload). Answers the field. */
export function removeRows(ctx: Ctx, t: TaskTarget, fieldKey: string, rowIndexes: number[]) {
  assertTaskReadable(ctx, t);
  const f = tableField(t, fieldKey);
  const rows = currentRows(ctx, t, f);
  for (const i of rowIndexes) if (i > rows.length) throw validationError(`rowIndexes: row ${i} does not exist; the table has ${rows.length} rows.`, 'rowIndexes');
  const drop = new Set(rowIndexes);
  return saveRows(ctx, t, f, rows.filter((_, i) => !drop.has(i + 1)));
}

/** PATCH .../rows {cells: [{rowIndex, columnIndex | columnKey, value}]}: sets cells. Answers the field. */
export function setCells(ctx: Ctx, t: TaskTarget, fieldKey: string, cells: { rowIndex: number; columnIndex?: number; columnKey?: string; value: string | null }[]) {
  assertTaskReadable(ctx, t);
  const f = tableField(t, fieldKey);
  const cols = tableColumns(f);
  const width = Math.max(cols.length, 1);
  const rows = currentRows(ctx, t, f).map((r) => [...r]);
  cells.forEach((c, i) => {
    const p = `cells[${i}]`;
    if (c.rowIndex > rows.length) throw validationError(`${p}.rowIndex ${c.rowIndex} does not exist; the table has ${rows.length} rows (add rows with POST .../rows).`, `${p}.rowIndex`);
    let col: number;
    if (c.columnKey !== undefined) {
      col = cols.findIndex((x) => x.id?.toLowerCase() === c.columnKey!.toLowerCase()) + 1;
      if (col === 0) throw validationError(`${p}.columnKey ${c.columnKey} names no column of this table.`, `${p}.columnKey`);
    } else if (c.columnIndex !== undefined) {
      col = c.columnIndex;
      if (col > width) throw validationError(`${p}.columnIndex ${col} does not exist; the table has ${width} columns.`, `${p}.columnIndex`);
    } else throw validationError(`${p} needs columnIndex or columnKey.`, p);
    rows[c.rowIndex - 1][col - 1] = c.value;
  });
  return saveRows(ctx, t, f, rows);
}
