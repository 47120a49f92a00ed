// Legacy v2 Data Set routes (legacy spec 4.8, 7, 8, 9): 22 routes over the one store
// (src/domain/datasets), every one needing X-API-VERSION: 2.0. `{dataSetId}` is a GUID
// or a system set's slug. Refusals are `{error: <message>}` (legacy spec 7), plus
// `templates: [{id, name}]` on the 409 of deleting a linked Data Set.
import type { Ctx } from '../../context';
import { ApiError } from '../../errors';
import { refuseSystemWrite } from '../../domain/datasets/access';
import { isGuid } from '../../ids';
import { contentDisposition, exportCsv, importCsv } from '../../domain/datasets/csv';
import { createField, deleteField, listFields, updateField } from '../../domain/datasets/fields';
import { DEFAULT_PAGE_SIZE, MAX_CSV_BYTES, MAX_LEGACY_PAGE_SIZE } from '../../domain/datasets/limits';
import { bulkCreate, bulkDelete, createRecord, deleteRecord, listRecords, updateRecord } from '../../domain/datasets/records';
import { createDataSet, deleteDataSet, getDataSet, listDataSets, updateDataSet } from '../../domain/datasets/sets';
import { createView, deleteView, getView, listViews, updateView } from '../../domain/datasets/views';
import { defineLegacyRoute, legacyError, type LegacyRequest } from '../define';
import { Reply } from '../../operations/define';
import { parseMultipart } from '../multipart';
import { bad, param } from '../params';
import { legacyField, legacyFull, legacyRecord, legacySummary, legacyView } from './data-set-shapes';

/** Domain refusals in the legacy body: the message, and the linked templates as {id, name}. */
function legacy(fn: (ctx: Ctx, r: LegacyRequest) => unknown) {
  return (ctx: Ctx, r: LegacyRequest) => {
    try {
      return fn(ctx, r);
    } catch (e) {
      if (e instanceof ApiError && e.status < 500) {
        const templates = e.extras.templates as { key: string; name: string }[] | undefined;
        throw legacyError(e.status, e.message, templates ? { templates: templates.map((t) => ({ id: t.key, name: t.name })) } : {});
      }
      throw e;
    }
  };
}

/** Property names of the objects inside a body's arrays, folded like the body's own (docs/legacy.md: any case). */
const NESTED: Record<string, string[]> = {
  fields: ['name', 'type', 'description'],
  records: ['values'],
  filters: ['fieldId', 'operator', 'value'],
  sorts: ['fieldId', 'direction', 'position'],
};

/** Known names folded to ours; the body keeps only those, an object inside an array keeps the rest as sent (for its own checks). */
function fold(o: object, names: string[], keepOthers = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    const n = names.find((x) => x.toLowerCase() === k.toLowerCase());
    if (n) out[n] = NESTED[n] && Array.isArray(v) ? v.map((e) => (e !== null && typeof e === 'object' && !Array.isArray(e) ? fold(e, NESTED[n], true) : e)) : v;
    else if (keepOthers) out[k] = v;
  }
  return out;
}

/** The JSON body as an object with the legacy's case-insensitive property names folded to ours, inside its arrays too. */
function body(r: LegacyRequest, names: string[]): Record<string, unknown> {
  const b = r.body;
  if (b === undefined) throw bad('A JSON object body is required.');
  if (b === null || typeof b !== 'object' || Array.isArray(b)) throw bad('The request body must be a JSON object.');
  return fold(b, names);
}

const p = (r: LegacyRequest, name: string) => r.params?.[name] ?? '';

/** A record body: `values` is required (an empty object is an empty record); PUT clears what it leaves out. */
function recordBody(r: LegacyRequest): { values: unknown } {
  const b = body(r, ['values']);
  if (b.values === undefined || b.values === null) throw bad('values is required: an object keyed by field id ({} for no values).');
  return { values: b.values };
}

function intParam(q: URLSearchParams, name: string, fallback: number, max?: number): number {
  const v = param(q, name);
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v)) throw bad(`${name} must be a whole number.`);
  const n = Number(v);
  if (n < 1) throw bad(`${name} must be 1 or more.`);
  if (max !== undefined && n > max) throw bad(`${name} must be at most ${max}.`);
  return n;
}

function viewIdParam(q: URLSearchParams): string | undefined {
  const v = param(q, 'viewId');
  if (v !== undefined && !isGuid(v)) throw bad('viewId must be a GUID.');
  return v;
}

function records(ctx: Ctx, r: LegacyRequest) {
  const page = intParam(r.query, 'page', 1);
  const pageSize = intParam(r.query, 'pageSize', DEFAULT_PAGE_SIZE, MAX_LEGACY_PAGE_SIZE);
  const out = listRecords(ctx, p(r, 'dataSetId'), { viewKey: viewIdParam(r.query), viewField: 'viewId', limit: pageSize, offset: (page - 1) * pageSize });
  return { data: out.records.map(legacyRecord), pagination: { page, pageSize, total: out.total, totalPages: Math.ceil(out.total / pageSize) } };
}

function importLegacy(ctx: Ctx, r: LegacyRequest) {
  if (!r.contentType || !/^multipart\/form-data/i.test(r.contentType)) throw bad('The CSV import is multipart/form-data with a file part named file.');
  const form = parseMultipart(r.rawBody, r.contentType, MAX_CSV_BYTES);
  const mode = (form.fields.mode ?? 'create').trim();
  if (mode === 'replace') refuseSystemWrite(ctx.db, form.fields.datasetid); // 403 whatever else the form holds (legacy 3)
  if (!form.file) throw bad('file is required: the CSV file, as the form part named file.');
  if (mode !== 'create' && mode !== 'replace') throw bad(`mode ${JSON.stringify(mode)} is not a mode; use create or replace.`);
  const dataSet = importCsv(ctx, { bytes: form.file.bytes, fileName: form.file.fileName }, {
    mode,
    dataSetRef: form.fields.datasetid,
    dataSetField: 'dataSetId',
    name: form.fields.name,
    description: form.fields.description,
  });
  return { status: 'complete', dataSet: legacyFull(dataSet) };
}

function exportLegacy(ctx: Ctx, r: LegacyRequest) {
  const out = exportCsv(ctx, p(r, 'dataSetId'), viewIdParam(r.query), 'viewId');
  return new Reply(200, out.bytes, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': contentDisposition(out.fileName) });
}

const BASE = '/api/data-sets';
const SET = `${BASE}/:dataSetId`;
const route = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, handler: (ctx: Ctx, r: LegacyRequest) => unknown) =>
  defineLegacyRoute({
    method,
    path,
    v2: true,
    ...(method !== 'GET' && path.startsWith(SET) ? { refuseFirst: (db: Ctx['db'], params: Record<string, string>) => refuseSystemWrite(db, params.dataSetId) } : {}),
    handler: legacy(handler),
  });
const done = () => new Reply(204, undefined);

export const dataSetLegacyRoutes = [
  route('GET', BASE, (ctx) => ({ data: listDataSets(ctx).map(legacySummary) })),
  route('POST', BASE, (ctx, r) => new Reply(201, legacyFull(createDataSet(ctx, body(r, ['name', 'description', 'fields']))))),
  route('POST', `${BASE}/import`, importLegacy),
  route('GET', SET, (ctx, r) => legacyFull(getDataSet(ctx, p(r, 'dataSetId')))),
  route('PUT', SET, (ctx, r) => legacyFull(updateDataSet(ctx, p(r, 'dataSetId'), body(r, ['name', 'description']), 'put'))),
  route('DELETE', SET, (ctx, r) => (deleteDataSet(ctx, p(r, 'dataSetId'), param(r.query, 'force')?.toLowerCase() === 'true'), done())),
  route('GET', `${SET}/fields`, (ctx, r) => ({ data: listFields(ctx, p(r, 'dataSetId')).fields.map(legacyField) })),
  route('POST', `${SET}/fields`, (ctx, r) => new Reply(201, legacyField(createField(ctx, p(r, 'dataSetId'), body(r, ['name', 'type', 'description']))))),
  route('PUT', `${SET}/fields/:fieldId`, (ctx, r) => legacyField(updateField(ctx, p(r, 'dataSetId'), p(r, 'fieldId'), body(r, ['name', 'type', 'description', 'position']), 'put'))),
  route('DELETE', `${SET}/fields/:fieldId`, (ctx, r) => (deleteField(ctx, p(r, 'dataSetId'), p(r, 'fieldId')), done())),
  route('GET', `${SET}/records`, records),
  route('POST', `${SET}/records`, (ctx, r) => new Reply(201, legacyRecord(createRecord(ctx, p(r, 'dataSetId'), recordBody(r))))),
  route('POST', `${SET}/records/bulk`, (ctx, r) => new Reply(201, bulkCreate(ctx, p(r, 'dataSetId'), body(r, ['mode', 'records'])))),
  route('DELETE', `${SET}/records/bulk`, (ctx, r) => (bulkDelete(ctx, p(r, 'dataSetId'), { recordKeys: body(r, ['recordIds']).recordIds }, 'recordIds'), done())),
  route('PUT', `${SET}/records/:recordId`, (ctx, r) => legacyRecord(updateRecord(ctx, p(r, 'dataSetId'), p(r, 'recordId'), recordBody(r), 'put'))),
  route('DELETE', `${SET}/records/:recordId`, (ctx, r) => (deleteRecord(ctx, p(r, 'dataSetId'), p(r, 'recordId')), done())),
  route('GET', `${SET}/views`, (ctx, r) => ({ data: listViews(ctx, p(r, 'dataSetId')).views.map(legacyView) })),
  route('POST', `${SET}/views`, (ctx, r) => new Reply(201, legacyView(createView(ctx, p(r, 'dataSetId'), body(r, ['name', 'filters', 'sorts', 'hiddenFields']), { fieldId: 'fieldId' })))),
  route('GET', `${SET}/views/:viewId`, (ctx, r) => legacyView(getView(ctx, p(r, 'dataSetId'), p(r, 'viewId')))),
  route('PUT', `${SET}/views/:viewId`, (ctx, r) => legacyView(updateView(ctx, p(r, 'dataSetId'), p(r, 'viewId'), body(r, ['name', 'filters', 'sorts', 'hiddenFields']), 'put', { fieldId: 'fieldId' }))),
  route('DELETE', `${SET}/views/:viewId`, (ctx, r) => (deleteView(ctx, p(r, 'dataSetId'), p(r, 'viewId')), done())),
  route('GET', `${SET}/export`, exportLegacy),
];
