// CSV import and export (legacy spec 4.8; csv-parse / csv-stringify). Import is
// synchronous and all or nothing: the whole file is checked with the one value
// validator before a row is written, and raises no per-record events (spec v3 6.3).
// Export: UTF-8 with a byte-order mark, the view's visible columns (field names as the
// header), its filters and sort; cells are the stored values' text, so importing an
// export reproduces the values byte for byte (docs/data-sets.md "CSV").
import { isUtf8 } from 'node:buffer';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { Ctx } from '../../context';
import { validationError } from '../../errors';
import { assertCanChangeDataSet, assertCanCreateDataSet, assertCanReadDataSets, assertNotSystem } from './access';
import { cellText, checkValue, recordBytes, type FieldType } from './field-types';
import { MAX_CSV_BYTES, MAX_FIELDS, MAX_NAME, MAX_RECORD_BYTES, MAX_RECORDS } from './limits';
import { allRecords } from './query';
import { insertMany } from './records';
import { dataSetById, defaultView, fieldsOf, findDataSet, findView, type DataSetRow, type FieldRow, type Values } from './lookup';
import { setDataSetDescription } from '../../rows/data-sets';
import { checkDescription, checkName, full, insertDataSet, type DataSetFull } from './sets';

export interface CsvFile {
  bytes: Buffer;
  /** The uploaded file's name (a new set's default name). */
  fileName?: string;
}

export interface ImportOptions {
  mode: 'create' | 'replace';
  /** The set to replace (mode replace). */
  dataSetRef?: string;
  dataSetField?: string;
  name?: unknown;
  description?: unknown;
  fileField?: string;
}

const fail = (message: string, field: string) => validationError(message, field);

/** A CSV file's size limit (also checked on the base64 text's length before it is decoded). */
export function checkCsvSize(bytes: number, field: string): void {
  if (bytes > MAX_CSV_BYTES) throw fail(`${field} is ${bytes.toLocaleString('en')} bytes; a CSV import is at most 5 MB (${MAX_CSV_BYTES.toLocaleString('en')} bytes).`, field);
}

/** Bytes to rows: size, UTF-8, BOM, quoting and column counts checked. */
export function parseCsv(file: CsvFile, field = 'file'): string[][] {
  checkCsvSize(file.bytes.length, field);
  if (file.bytes.length === 0) throw fail(`${field} is empty; the first row must name the columns.`, field);
  // isUtf8 + toString: measured ~3x faster than a fatal TextDecoder on 5 MB.
  if (!isUtf8(file.bytes)) throw fail(`${field} is not UTF-8 text; save the CSV as UTF-8.`, field);
  let text = file.bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // Counted before csv-parse builds a single row: a file of millions of short rows or a row of
  // millions of columns is refused in milliseconds, holding nothing but its text (docs/reliability.md 9).
  checkShape(text, field);
  try {
    // Line ends: a record ends at CRLF, LF or CR, mixed freely in one file (normalised, never
    // stored as part of a cell); inside a quoted cell every byte is kept (docs/data-sets.md).
    const rows = parse(text, { bom: false, skip_empty_lines: true, relax_column_count: false, record_delimiter: ['\r\n', '\n', '\r'] }) as string[][];
    if (rows.length === 0) throw fail(`${field} has no header row; the first row must name the columns.`, field);
    return rows;
  } catch (e) {
    if (e instanceof Error && 'status' in e) throw e;
    throw fail(`${field} is not a valid CSV file: ${(e as Error).message}`, field);
  }
}

/**
 * One pass over the text counting records (non-empty lines, a quoted cell's line ends kept
 * inside it, as csv-parse reads them) and each record's columns; it stops at the first record
 * past the limits. Where the text is not valid CSV the count may differ from csv-parse's, but
 * only after the point where csv-parse itself stops with an error.
 */
function checkShape(text: string, field: string): void {
  const maxRecords = MAX_RECORDS + 1; // the header row names the columns
  let records = 0;
  let columns = 1;
  let content = false;
  let quoted = false;
  let fieldStart = true;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (quoted) {
      if (c === 34) {
        if (text.charCodeAt(i + 1) === 34) i++;
        else quoted = false;
      }
      continue;
    }
    if (c === 10 || c === 13) {
      if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
      if (content && ++records > maxRecords) throw tooManyRows(field);
      columns = 1;
      content = false;
      fieldStart = true;
      continue;
    }
    content = true;
    if (c === 44) {
      if (++columns > MAX_FIELDS) throw tooManyColumns(field, records + 1);
      fieldStart = true;
    } else {
      if (c === 34 && fieldStart) quoted = true;
      fieldStart = false;
    }
  }
  if (content && ++records > maxRecords) throw tooManyRows(field);
}

const tooManyRows = (field: string) =>
  fail(`${field} has more than ${MAX_RECORDS.toLocaleString('en')} rows after its header; a Data Set holds at most ${MAX_RECORDS.toLocaleString('en')} records.`, field);
const tooManyColumns = (field: string, record: number) =>
  fail(
    record === 1
      ? `${field} has more than ${MAX_FIELDS} columns; a Data Set has at most ${MAX_FIELDS} fields.`
      : `${field}: row ${record} has more than ${MAX_FIELDS} columns; a Data Set has at most ${MAX_FIELDS} fields.`,
    field,
  );

function checkHeader(header: string[], field: string): string[] {
  if (header.length > MAX_FIELDS) throw fail(`${field} has ${header.length} columns; a Data Set has at most ${MAX_FIELDS} fields.`, field);
  const seen = new Set<string>();
  return header.map((h, i) => {
    const name = unguardCell(h.trim());
    if (name === '') throw fail(`${field}: column ${i + 1} of the header row has no name.`, field);
    if (name.length > MAX_NAME) throw fail(`${field}: column ${i + 1} of the header row is longer than ${MAX_NAME} characters.`, field);
    if (seen.has(name.toLowerCase())) throw fail(`${field}: the header row names "${name}" twice.`, field);
    seen.add(name.toLowerCase());
    return name;
  });
}

/**
 * CSV injection (OWASP): a spreadsheet runs a cell that starts with one of these as a
 * formula. Text cells starting with one get a leading apostrophe (the guard) on export.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A cell the importer reads as guarded: an apostrophe before a formula character or before another apostrophe. */
const GUARDED = /^'[=+\-@\t\r']/;
/** Numbers, dates and booleans are validated values: never guarded, never unguarded (`-5` stays `-5`). */
const GUARDS_TYPE = (t: FieldType) => t !== 'number' && t !== 'date' && t !== 'boolean';

/** Export: the guard before a formula character, and before a value that would read as guarded, so import gives it back as it was. */
export const guardCell = (text: string): string => (FORMULA_START.test(text) || GUARDED.test(text) ? `'${text}` : text);
/** Import: the inverse of guardCell (one apostrophe dropped before a formula character or an apostrophe). */
export const unguardCell = (text: string): string => (GUARDED.test(text) ? text.slice(1) : text);

const CANONICAL_NUMBER = (s: string) => s.trim() === s && s !== '' && Number.isFinite(Number(s)) && String(Number(s)) === s;

/** A new set's field types: the narrowest type every non-empty cell is, written exactly as it would be exported. */
function inferType(cells: string[]): FieldType {
  const filled = cells.filter((c) => c.trim() !== '');
  if (filled.length === 0) return 'text';
  if (filled.every(CANONICAL_NUMBER)) return 'number';
  if (filled.every((c) => c === 'true' || c === 'false')) return 'boolean';
  for (const t of ['date', 'email', 'url'] as const) if (filled.every((c) => c.trim() === c && checkValue(t, c).ok)) return t;
  return 'text';
}

function checkRows(rows: string[][], fields: (FieldRow | { key: string; name: string; type: FieldType })[], field: string): Values[] {
  if (rows.length > MAX_RECORDS) throw fail(`${field} has ${rows.length.toLocaleString('en')} rows; a Data Set holds at most ${MAX_RECORDS.toLocaleString('en')} records.`, field);
  return rows.map((row, r) => {
    const values: Values = {};
    fields.forEach((f, c) => {
      const v = checkValue(f.type, GUARDS_TYPE(f.type) ? unguardCell(row[c]) : row[c]);
      if (!v.ok) throw fail(`${field}: row ${r + 2}, column "${f.name}" (${f.type}): ${JSON.stringify(row[c])} ${v.reason}.`, field);
      if (v.value !== undefined) values[f.key] = v.value;
    });
    const bytes = recordBytes(values);
    if (bytes > MAX_RECORD_BYTES) throw fail(`${field}: row ${r + 2} holds ${bytes.toLocaleString('en')} bytes of cell text; a record holds at most 5 KB.`, field);
    return values;
  });
}

const baseName = (fileName: string | undefined) => (fileName ?? '').replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '').trim();

/** Import (legacy spec 4.8 "CSV import"): create a set from the file, or replace a set's records. */
export function importCsv(ctx: Ctx, file: CsvFile, o: ImportOptions): DataSetFull {
  const fileField = o.fileField ?? 'file';
  const description = checkDescription(o.description, 'description');
  if (o.mode === 'replace') {
    if (o.dataSetRef === undefined || o.dataSetRef.trim() === '') throw fail(`${o.dataSetField ?? 'dataSetId'} is required when mode is replace.`, o.dataSetField ?? 'dataSetId');
    const ds = findDataSet(ctx, o.dataSetRef, o.dataSetField);
    assertCanReadDataSets(ctx, ds);
    assertCanChangeDataSet(ctx, ds);
    const rows = parseCsv(file, fileField);
    const header = checkHeader(rows[0], fileField);
    const fields = fieldsOf(ctx, ds.id);
    const byName = new Map(fields.map((f) => [f.name.toLowerCase(), f]));
    const cols = header.map((h) => {
      const f = byName.get(h.toLowerCase());
      if (!f) throw fail(`${fileField}: column "${h}" is not a field of Data Set "${ds.name}" (its fields: ${fields.map((x) => x.name).join(', ')}).`, fileField);
      return f;
    });
    const values = checkRows(rows.slice(1), cols, fileField);
    insertMany(ctx, ds, values, true);
    if (description !== undefined) setDataSetDescription(ctx.db, ds.id, description);
    return full(ctx, dataSetById(ctx, ds.id));
  }
  const fallback = baseName(file.fileName);
  const name = checkName(o.name === undefined || o.name === null || o.name === '' ? fallback : o.name, 'name', 'Data Set');
  assertCanCreateDataSet(ctx);
  const rows = parseCsv(file, fileField);
  const header = checkHeader(rows[0], fileField);
  const body = rows.slice(1);
  const types = header.map((_, c) => inferType(body.map((r) => r[c])));
  const ds = insertDataSet(ctx, name, description, header.map((h, c) => ({ name: h, type: types[c] })));
  const fields = fieldsOf(ctx, ds.id);
  insertMany(ctx, ds, checkRows(body, fields, fileField), false);
  return full(ctx, dataSetById(ctx, ds.id));
}

export interface CsvExport {
  fileName: string;
  bytes: Buffer;
}

const safeName = (s: string) => s.replace(/[\\/:*?"<>|\r\n\t]+/g, '_').trim() || 'data-set';

/** Export (legacy spec 4.8 "CSV export"): the view's visible columns and records in its order; system sets 403. */
export function exportCsv(ctx: Ctx, ref: string, viewKey?: string, viewField?: string): CsvExport {
  const ds: DataSetRow = findDataSet(ctx, ref);
  assertCanReadDataSets(ctx, ds);
  assertNotSystem(ds);
  const view = viewKey !== undefined ? findView(ctx, ds, viewKey, viewField) : defaultView(ctx, ds.id);
  const fields = fieldsOf(ctx, ds.id);
  const hidden = new Set((JSON.parse(view.hidden_fields) as string[]).map((k) => k.toLowerCase()));
  const cols = fields.filter((f) => !hidden.has(f.key.toLowerCase()));
  const rows = allRecords(ctx, ds.id, fields, { filters: JSON.parse(view.filters), sorts: JSON.parse(view.sorts) });
  const data: string[][] = [cols.map((f) => f.name)];
  for (const r of rows) {
    const v = JSON.parse(r.vals) as Values;
    data.push(cols.map((f) => (GUARDS_TYPE(f.type) ? guardCell(cellText(v[f.key])) : cellText(v[f.key]))));
  }
  // A cell holding CR or LF alone is quoted too (csv-stringify quotes only the record delimiter,
  // CRLF): strict RFC 4180 readers then read one record per row.
  const text = stringify([data[0].map(guardCell), ...data.slice(1)], { record_delimiter: '\r\n', quoted_match: /[\r\n]/ });
  const date = new Date(ctx.now()).toISOString().slice(0, 10);
  return { fileName: `${safeName(ds.name)}-${safeName(view.name)}-${date}.csv`, bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]) };
}

/** Content-Disposition for the export: an ASCII fallback and the UTF-8 name (RFC 6266). */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
