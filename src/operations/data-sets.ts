// Data Sets over v3 (spec v3 4.7 paths; 5.4-5.6, 5.9 permissions; 9: updates are PATCH).
// The store is the legacy API's (src/domain/datasets); bodies and answers the spec does
// not show are designed in docs/data-sets.md. The spec names no Data Set tools.
import { z } from 'zod';
import type { Ctx } from '../context';
import { validationError } from '../errors';
import { CREATE, READ, REMOVE, Reply, defineOperation, mixed, REPLACE, CREATE_REPLACING } from './define';
import { cursor, pageSizeStrict, queryBool } from './schemas';
import { RawBody } from './raw-body';
import { bulkResultShape, dataSetConnectionShape, dataSetFieldShape, dataSetRecordShape, dataSetShape, dataSetSummaryShape, dataSetViewShape, importResultShape, pageOf } from './shapes/data-sets';
import { cursorScope, decodeCursor, encodeCursor, paginate } from '../domain/paging';
import { contentDisposition, exportCsv, importCsv } from '../domain/datasets/csv';
import { FIELD_TYPES } from '../domain/datasets/field-types';
import { createField, deleteField, getField, listFields, updateField } from '../domain/datasets/fields';
import { connectionsOf } from '../domain/datasets/links';
import { MAX_DESCRIPTION, MAX_NAME } from '../domain/datasets/limits';
import { OPERATORS } from '../domain/datasets/query';
import { bulkCreate, bulkDelete, createRecord, deleteRecord, getRecord, listRecords, updateRecord } from '../domain/datasets/records';
import { viewsOf } from '../domain/datasets/rows';
import { createDataSet, deleteDataSet, getDataSet, listDataSets, readableDataSet, updateDataSet } from '../domain/datasets/sets';
import { v3Connection, v3Field, v3Full, v3Record, v3Summary, v3View } from '../domain/datasets/v3';
import { createView, deleteView, getView, listViews, updateView } from '../domain/datasets/views';
import { refuseSystemWrite } from '../domain/datasets/access';

const TAG = 'Data Sets';
const NO_TOOL = 'The spec names no MCP tool for Data Sets (spec v3 4.6 lists the tools); Data Sets are REST only.';

const dataSetKey = () => z.string({ error: 'must be a Data Set key (GUID) or a system Data Set slug' }).describe("The Data Set's key (GUID), or a system Data Set's slug such as countries.");
const keyOf = (what: string) => z.string({ error: `must be the ${what} key (GUID)` }).describe(`The ${what}'s key (GUID).`);
const name = (what: string) => z.string({ error: 'must be a string' }).max(MAX_NAME, { error: `must be at most ${MAX_NAME} characters` }).describe(`The ${what} name, up to ${MAX_NAME} characters.`);
const description = () => z.string({ error: 'must be a string' }).max(MAX_DESCRIPTION, { error: 'must be at most 1,000 characters' });
const fieldType = () => z.enum(FIELD_TYPES, { error: `must be one of ${FIELD_TYPES.join(', ')}` }).describe(`The field type: ${FIELD_TYPES.join(', ')} (boolean is True/False).`);
const cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const values = () => z.record(z.string(), cell, { error: 'must be an object keyed by field key' }).describe('Values keyed by field key; each is validated against its field type; empty (null or "") clears.');
const filters = () =>
  z
    .array(
      z.object({
        fieldKey: z.string({ error: 'must be a field key' }).describe('A field of this Data Set.'),
        operator: z.enum(OPERATORS, { error: `must be one of ${OPERATORS.join(', ')}` }).describe(`One of ${OPERATORS.join(', ')}.`),
        value: z.union([z.string(), z.number(), z.boolean()]).optional().describe('Not used by is_empty and is_not_empty; for in a comma-separated list.'),
      }),
      { error: 'must be an array of {fieldKey, operator, value}' },
    )
    .describe('Filters, all of which a record must pass (AND).');
const sorts = () =>
  z
    .array(
      z.object({
        fieldKey: z.string({ error: 'must be a field key' }).describe('A field of this Data Set.'),
        direction: z.enum(['asc', 'desc'], { error: 'must be asc or desc' }).optional().describe('asc (default) or desc.'),
        position: z.number({ error: 'must be an integer' }).int({ error: 'must be an integer' }).optional().describe('Order of this sort among the sorts, lowest first.'),
      }),
      { error: 'must be an array of {fieldKey, direction, position}' },
    )
    .describe('Sorts, applied by position, lowest first.');
const hiddenFields = () => z.array(z.string({ error: 'must be a field key' }), { error: 'must be an array of field keys' }).describe('Field keys the view hides.');
const csvFile = () =>
  z
    .strictObject(
      {
        name: z.string({ error: 'must be a string' }).max(255, { error: 'must be at most 255 characters' }).optional().describe('The file name; a new Data Set is named after it (without extension) unless name is sent.'),
        data: z.string({ error: 'must be the CSV file base64-encoded' }).describe('The CSV file (UTF-8, optional byte-order mark, header row of field names), base64-encoded; at most 5 MB decoded.'),
      },
      { error: 'must be an object {name, data}' },
    )
    .describe('The CSV file, base64-encoded in the JSON body (spec v3 4.1 rule 1).');

const NOT_FOUND = '404 DATA_SET_NOT_FOUND' as const;

function decodeFile(file: { name?: string; data: string }) {
  const b64 = file.data.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 === 1) throw validationError('file.data is not base64.', 'file.data');
  return { bytes: Buffer.from(b64, 'base64'), fileName: file.name };
}

function recordPage(ctx: Ctx, input: { dataSetKey: string; viewKey?: string; pageSize?: number; after?: string }) {
  const pageSize = input.pageSize ?? 50;
  const ds = readableDataSet(ctx, input.dataSetKey);
  const binding = [cursorScope(ctx), 'data-set-records', ds.key, input.viewKey ?? null, pageSize];
  const offset = decodeCursor(input.after, binding);
  const page = listRecords(ctx, ds.key, { viewKey: input.viewKey, limit: pageSize, offset });
  const hasMore = offset + pageSize < page.total;
  return { items: page.records.map(v3Record), ...(hasMore ? { nextCursor: encodeCursor(offset + pageSize, binding) } : {}), hasMore, total: page.total };
}

const paging = { pageSize: pageSizeStrict().describe('1 to 100, default 50.'), after: cursor().describe('The nextCursor of the previous page.') };

const operations = [
  defineOperation({
    id: 'listDataSets',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'GET',
    path: '/v3/data-sets',
    tag: TAG,
    summary: 'List Data Sets',
    description: "The workspace's organisation Data Sets by name, then the system Data Sets (read-only, e.g. countries), with field and record counts.",
    input: paging,
    query: ['pageSize', 'after'],
    output: pageOf(dataSetSummaryShape),
    refusals: ['403 FORBIDDEN'],
    budget: 'standard',
    annotations: READ,
    noTool: NO_TOOL,
    handler: (ctx, i) => paginate(listDataSets(ctx), i.pageSize ?? 50, i.after, [cursorScope(ctx), 'data-sets', i.pageSize ?? 50], (s) => v3Summary(ctx, s)),
  }),
  defineOperation({
    id: 'createDataSet',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'POST',
    path: '/v3/data-sets',
    tag: TAG,
    summary: 'Create a Data Set',
    description: 'Creates an organisation Data Set, Unfiled, with the fields given (a single text field named Name when fields is omitted) and the default All Records view. Needs Library.Creator.',
    input: {
      name: name('Data Set'),
      description: description().optional().describe('Up to 1,000 characters.'),
      fields: z
        .array(z.object({ name: name('field'), type: fieldType(), description: description().optional().describe('Up to 1,000 characters.') }), { error: 'must be an array of {name, type, description}' })
        .optional()
        .describe('The fields, 1 to 50, names unique within the Data Set.'),
    },
    output: dataSetShape,
    refusals: ['403 FORBIDDEN'],
    status: 201,
    budget: 'standard',
    annotations: CREATE,
    noTool: NO_TOOL,
    handler: (ctx, i) => v3Full(ctx, createDataSet(ctx, i)),
  }),
  defineOperation({
    id: 'importDataSet',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'POST',
    path: '/v3/data-sets/import',
    tag: TAG,
    summary: 'Create a Data Set from a CSV file',
    description:
      'Creates a Data Set from a CSV file: the header row names the fields; each column gets the narrowest type all its cells are (number, boolean, date, email, url, else text). Synchronous: the whole file is valid or nothing is created; no record events.',
    input: {
      file: csvFile(),
      name: name('Data Set').optional().describe('The Data Set name; defaults to the file name without extension.'),
      description: description().optional().describe('Up to 1,000 characters.'),
    },
    output: importResultShape,
    refusals: ['403 FORBIDDEN'],
    status: 201,
    budget: 'standard',
    annotations: CREATE,
    noTool: NO_TOOL,
    handler: (ctx, i) => ({ status: 'complete' as const, dataSet: v3Full(ctx, importCsv(ctx, decodeFile(i.file), { mode: 'create', name: i.name, description: i.description, fileField: 'file.data' })) }),
  }),
  defineOperation({
    id: 'getDataSet',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'GET',
    path: '/v3/data-sets/:dataSetKey',
    tag: TAG,
    summary: 'Get a Data Set',
    description: 'One Data Set with its fields and views; no records.',
    input: { dataSetKey: dataSetKey() },
    output: dataSetShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND],
    budget: 'standard',
    annotations: READ,
    noTool: NO_TOOL,
    handler: (ctx, i) => v3Full(ctx, getDataSet(ctx, i.dataSetKey)),
  }),
  defineOperation({
    id: 'updateDataSet',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'PATCH',
    path: '/v3/data-sets/:dataSetKey',
    tag: TAG,
    summary: 'Change a Data Set',
    description: 'Changes name and description (PATCH: only what is sent; description null clears). A system Data Set is read-only (403).',
    input: { dataSetKey: dataSetKey(), name: name('Data Set').optional().describe('The new name, up to 200 characters.'), description: description().nullable().optional().describe('Up to 1,000 characters; null clears.') },
    output: dataSetShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND],
    budget: 'standard',
    annotations: REPLACE,
    noTool: NO_TOOL,
    handler: (ctx, i) => v3Full(ctx, updateDataSet(ctx, i.dataSetKey, { name: i.name, description: i.description }, 'patch')),
  }),
  defineOperation({
    id: 'deleteDataSet',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'DELETE',
    path: '/v3/data-sets/:dataSetKey',
    tag: TAG,
    summary: 'Delete a Data Set',
    description:
      'Administrators only (spec v3 5.6). A Data Set linked to template fields is 409 CONFLICT with `templates` ({key, name}) unless force is true, which deletes it and leaves those fields without their records. System Data Sets cannot be deleted (403).',
    input: { dataSetKey: dataSetKey(), force: queryBool().describe('Delete even when template fields link to it; default false.') },
    query: ['force'],
    refusals: ['403 FORBIDDEN', NOT_FOUND, '409 CONFLICT'],
    status: 204,
    budget: 'standard',
    annotations: REMOVE,
    noTool: NO_TOOL,
    handler: (ctx, i) => deleteDataSet(ctx, i.dataSetKey, i.force === true),
  }),
  defineOperation({
    id: 'listDataSetFields',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'GET',
    path: '/v3/data-sets/:dataSetKey/fields',
    tag: TAG,
    summary: "List a Data Set's fields",
    description: 'The fields in position order.',
    input: { dataSetKey: dataSetKey(), ...paging },
    query: ['pageSize', 'after'],
    output: pageOf(dataSetFieldShape),
    refusals: ['403 FORBIDDEN', NOT_FOUND],
    budget: 'standard',
    annotations: READ,
    noTool: NO_TOOL,
    handler: (ctx, i) => {
      const { ds, fields } = listFields(ctx, i.dataSetKey);
      return paginate(fields, i.pageSize ?? 50, i.after, [cursorScope(ctx), 'data-set-fields', ds.key, i.pageSize ?? 50], v3Field);
    },
  }),
  defineOperation({
    id: 'createDataSetField',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'POST',
    path: '/v3/data-sets/:dataSetKey/fields',
    tag: TAG,
    summary: 'Add a field',
    description: 'Adds a field at the end (at most 50 per Data Set; names unique); existing records gain it empty.',
    input: { dataSetKey: dataSetKey(), name: name('field'), type: fieldType(), description: description().optional().describe('Up to 1,000 characters.') },
    output: dataSetFieldShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND],
    status: 201,
    budget: 'standard',
    annotations: CREATE,
    noTool: NO_TOOL,
    handler: (ctx, i) => v3Field(createField(ctx, i.dataSetKey, i)),
  }),
  defineOperation({
    id: 'getDataSetField',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'GET',
    path: '/v3/data-sets/:dataSetKey/fields/:fieldKey',
    tag: TAG,
    summary: 'Get a field',
    description: 'One field of a Data Set.',
    input: { dataSetKey: dataSetKey(), fieldKey: keyOf('field') },
    output: dataSetFieldShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND, '404 DATA_SET_FIELD_NOT_FOUND'],
    budget: 'standard',
    annotations: READ,
    noTool: NO_TOOL,
    handler: (ctx, i) => v3Field(getField(ctx, i.dataSetKey, i.fieldKey)),
  }),
  defineOperation({
    id: 'updateDataSetField',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'PATCH',
    path: '/v3/data-sets/:dataSetKey/fields/:fieldKey',
    tag: TAG,
    summary: 'Rename, retype or reposition a field',
    description:
      'PATCH: only what is sent. A type change is refused (400) when an existing value would become invalid; changing to text always succeeds; values are converted. position (from 0) is the only way to reorder fields.',
    input: {
      dataSetKey: dataSetKey(),
      fieldKey: keyOf('field'),
      name: name('field').optional().describe('The new name, up to 200 characters, unique within the Data Set.'),
      type: fieldType().optional().describe('The new type: text, number, date, email, url or boolean; values are re-checked and converted.'),
      description: description().nullable().optional().describe('Up to 1,000 characters; null clears.'),
      position: z.number({ error: 'must be an integer from 0' }).int({ error: 'must be an integer from 0' }).min(0, { error: 'must be an integer from 0' }).optional().describe('The new position, from 0.'),
    },
    output: dataSetFieldShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND, '404 DATA_SET_FIELD_NOT_FOUND'],
    budget: 'standard',
    annotations: REPLACE,
    noTool: NO_TOOL,
    handler: (ctx, i) => v3Field(updateField(ctx, i.dataSetKey, i.fieldKey, i, 'patch')),
  }),
  defineOperation({
    id: 'deleteDataSetField',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'DELETE',
    path: '/v3/data-sets/:dataSetKey/fields/:fieldKey',
    tag: TAG,
    summary: 'Delete a field and its values',
    description: 'The only field is 400 (one must remain); a field a linked template field shows (Display Field) or maps (Table column) is 409 CONFLICT with `templates`.',
    input: { dataSetKey: dataSetKey(), fieldKey: keyOf('field') },
    refusals: ['403 FORBIDDEN', NOT_FOUND, '404 DATA_SET_FIELD_NOT_FOUND', '409 CONFLICT'],
    status: 204,
    budget: 'standard',
    annotations: REMOVE,
    noTool: NO_TOOL,
    handler: (ctx, i) => deleteField(ctx, i.dataSetKey, i.fieldKey),
  }),
  defineOperation({
    id: 'listDataSetRecords',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'GET',
    path: '/v3/data-sets/:dataSetKey/records',
    tag: TAG,
    summary: "List a Data Set's records",
    description: "Records in creation order, or with viewKey the view's filters, sorts and hidden fields applied. values are keyed by field key; empty values are omitted.",
    input: { dataSetKey: dataSetKey(), viewKey: keyOf('view').optional().describe("A view of this Data Set: its filters, sorts and hidden fields apply; omitted = every record in creation order."), ...paging },
    query: ['viewKey', 'pageSize', 'after'],
    output: pageOf(dataSetRecordShape),
    refusals: ['403 FORBIDDEN', NOT_FOUND, '404 DATA_SET_VIEW_NOT_FOUND'],
    budget: 'standard',
    annotations: READ,
    noTool: NO_TOOL,
    handler: (ctx, i) => recordPage(ctx, i),
  }),
  defineOperation({
    id: 'createDataSetRecord',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'POST',
    path: '/v3/data-sets/:dataSetKey/records',
    tag: TAG,
    summary: 'Add a record',
    description: 'Every value is validated against its field type; empty values are allowed; at most 5 KB of cell text per record and 10,000 records per Data Set. Raises data_set.record.created.',
    input: { dataSetKey: dataSetKey(), values: values().optional().describe('Values keyed by field key; each is validated against its field type; empty values are allowed.') },
    output: dataSetRecordShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND],
    status: 201,
    budget: 'standard',
    annotations: CREATE,
    noTool: NO_TOOL,
    handler: (ctx, i) => v3Record(createRecord(ctx, i.dataSetKey, i)),
  }),
  defineOperation({
    id: 'bulkCreateDataSetRecords',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'POST',
    path: '/v3/data-sets/:dataSetKey/records/bulk',
    tag: TAG,
    summary: 'Add or replace records in bulk',
    description: 'mode append adds the records; replace deletes every existing record first. Atomic: all records are valid or nothing changes. Raises no per-record events.',
    input: {
      dataSetKey: dataSetKey(),
      mode: z.enum(['append', 'replace'], { error: 'must be append or replace' }).describe('append or replace.'),
      records: z.array(z.object({ values: values().optional() }), { error: 'must be an array of {values}' }).describe('The records, at least one.'),
    },
    output: bulkResultShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND],
    status: 201,
    budget: 'standard',
    annotations: CREATE_REPLACING,
    noTool: NO_TOOL,
    handler: (ctx, i) => bulkCreate(ctx, i.dataSetKey, i),
  }),
  defineOperation({
    id: 'bulkDeleteDataSetRecords',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'DELETE',
    path: '/v3/data-sets/:dataSetKey/records/bulk',
    tag: TAG,
    summary: 'Delete records in bulk',
    description: 'Deletes the records named (every key must name a record of this Data Set, else nothing is deleted). Raises one data_set.record.deleted per record.',
    input: { dataSetKey: dataSetKey(), recordKeys: z.array(z.string({ error: 'must be a record key' }), { error: 'must be an array of record keys' }).describe('Keys of the records to delete.') },
    refusals: ['403 FORBIDDEN', NOT_FOUND, '404 DATA_SET_RECORD_NOT_FOUND'],
    status: 204,
    budget: 'standard',
    annotations: REMOVE,
    noTool: NO_TOOL,
    handler: (ctx, i) => void bulkDelete(ctx, i.dataSetKey, i),
  }),
  defineOperation({
    id: 'getDataSetRecord',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'GET',
    path: '/v3/data-sets/:dataSetKey/records/:recordKey',
    tag: TAG,
    summary: 'Get a record',
    description: 'One record with every value.',
    input: { dataSetKey: dataSetKey(), recordKey: keyOf('record') },
    output: dataSetRecordShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND, '404 DATA_SET_RECORD_NOT_FOUND'],
    budget: 'standard',
    annotations: READ,
    noTool: NO_TOOL,
    handler: (ctx, i) => v3Record(getRecord(ctx, i.dataSetKey, i.recordKey)),
  }),
  defineOperation({
    id: 'updateDataSetRecord',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'PATCH',
    path: '/v3/data-sets/:dataSetKey/records/:recordKey',
    tag: TAG,
    summary: "Change a record's values",
    description: 'PATCH: only the fields sent change; null or "" clears one. Raises data_set.record.updated with the changed fields only (none when nothing changed).',
    input: { dataSetKey: dataSetKey(), recordKey: keyOf('record'), values: values().optional().describe('The values to change, keyed by field key; null or "" clears one; fields not sent keep their values.') },
    output: dataSetRecordShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND, '404 DATA_SET_RECORD_NOT_FOUND'],
    budget: 'standard',
    annotations: REPLACE,
    noTool: NO_TOOL,
    handler: (ctx, i) => v3Record(updateRecord(ctx, i.dataSetKey, i.recordKey, i, 'patch')),
  }),
  defineOperation({
    id: 'deleteDataSetRecord',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'DELETE',
    path: '/v3/data-sets/:dataSetKey/records/:recordKey',
    tag: TAG,
    summary: 'Delete a record',
    description: 'Raises data_set.record.deleted. Checklist answers already referencing the record keep it (answers are snapshots).',
    input: { dataSetKey: dataSetKey(), recordKey: keyOf('record') },
    refusals: ['403 FORBIDDEN', NOT_FOUND, '404 DATA_SET_RECORD_NOT_FOUND'],
    status: 204,
    budget: 'standard',
    annotations: REMOVE,
    noTool: NO_TOOL,
    handler: (ctx, i) => deleteRecord(ctx, i.dataSetKey, i.recordKey),
  }),
  defineOperation({
    id: 'listDataSetViews',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'GET',
    path: '/v3/data-sets/:dataSetKey/views',
    tag: TAG,
    summary: "List a Data Set's views",
    description: 'All Records first, then the others in creation order.',
    input: { dataSetKey: dataSetKey(), ...paging },
    query: ['pageSize', 'after'],
    output: pageOf(dataSetViewShape),
    refusals: ['403 FORBIDDEN', NOT_FOUND],
    budget: 'standard',
    annotations: READ,
    noTool: NO_TOOL,
    handler: (ctx, i) => {
      const { ds, views } = listViews(ctx, i.dataSetKey);
      return paginate(views, i.pageSize ?? 50, i.after, [cursorScope(ctx), 'data-set-views', ds.key, i.pageSize ?? 50], v3View);
    },
  }),
  defineOperation({
    id: 'createDataSetView',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'POST',
    path: '/v3/data-sets/:dataSetKey/views',
    tag: TAG,
    summary: 'Add a view',
    description: 'A named view (unique name, at most 20 views per Data Set) with filters (AND; thirteen operators), sorts and hidden fields.',
    input: {
      dataSetKey: dataSetKey(),
      name: name('view'),
      filters: filters().optional().describe('Filters, all of which a record must pass (AND).'),
      sorts: sorts().optional().describe('Sorts, applied by position, lowest first.'),
      hiddenFields: hiddenFields().optional().describe('Field keys the view hides.'),
    },
    output: dataSetViewShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND],
    status: 201,
    budget: 'standard',
    annotations: CREATE,
    noTool: NO_TOOL,
    handler: (ctx, i) => v3View(createView(ctx, i.dataSetKey, i)),
  }),
  defineOperation({
    id: 'getDataSetView',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'GET',
    path: '/v3/data-sets/:dataSetKey/views/:viewKey',
    tag: TAG,
    summary: 'Get a view',
    description: 'One view with its filters, sorts and hidden fields.',
    input: { dataSetKey: dataSetKey(), viewKey: keyOf('view') },
    output: dataSetViewShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND, '404 DATA_SET_VIEW_NOT_FOUND'],
    budget: 'standard',
    annotations: READ,
    noTool: NO_TOOL,
    handler: (ctx, i) => v3View(getView(ctx, i.dataSetKey, i.viewKey)),
  }),
  defineOperation({
    id: 'updateDataSetView',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'PATCH',
    path: '/v3/data-sets/:dataSetKey/views/:viewKey',
    tag: TAG,
    summary: 'Change a view',
    description: 'PATCH: name, and filters, sorts or hiddenFields each replaced whole when sent. The All Records view cannot be renamed (400 on name); its filters, sorts and hiddenFields change as on any other view.',
    input: {
      dataSetKey: dataSetKey(),
      viewKey: keyOf('view'),
      name: name('view').optional().describe('The new name, up to 200 characters, unique within the Data Set.'),
      filters: filters().optional().describe('Replaces every filter when sent.'),
      sorts: sorts().optional().describe('Replaces every sort when sent.'),
      hiddenFields: hiddenFields().optional().describe('Replaces the hidden fields when sent.'),
    },
    output: dataSetViewShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND, '404 DATA_SET_VIEW_NOT_FOUND'],
    budget: 'standard',
    annotations: REPLACE,
    noTool: NO_TOOL,
    handler: (ctx, i) => v3View(updateView(ctx, i.dataSetKey, i.viewKey, i, 'patch')),
  }),
  defineOperation({
    id: 'deleteDataSetView',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'DELETE',
    path: '/v3/data-sets/:dataSetKey/views/:viewKey',
    tag: TAG,
    summary: 'Delete a view',
    description: 'The All Records view cannot be deleted (400). Deleting a view template fields link to is allowed; those templates then get a data_set_link_removed warning on validation.',
    input: { dataSetKey: dataSetKey(), viewKey: keyOf('view') },
    refusals: ['403 FORBIDDEN', NOT_FOUND, '404 DATA_SET_VIEW_NOT_FOUND'],
    status: 204,
    budget: 'standard',
    annotations: REMOVE,
    noTool: NO_TOOL,
    handler: (ctx, i) => deleteView(ctx, i.dataSetKey, i.viewKey),
  }),
  defineOperation({
    id: 'exportDataSet',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'GET',
    path: '/v3/data-sets/:dataSetKey/export',
    tag: TAG,
    summary: 'Export a Data Set as CSV',
    description:
      "Answers text/csv (UTF-8 with byte-order mark; Content-Disposition names <data-set>-<view>-<date>.csv): the view's visible columns (field names as the header) and the records passing its filters, in its sort order. Default view when viewKey is omitted. System Data Sets are refused (403).",
    input: { dataSetKey: dataSetKey(), viewKey: keyOf('view').optional().describe('The view to export; the default view (All Records) when omitted.') },
    query: ['viewKey'],
    output: z.string().describe('The CSV text (sent as text/csv, not JSON).'),
    contentType: 'text/csv',
    refusals: ['403 FORBIDDEN', NOT_FOUND, '404 DATA_SET_VIEW_NOT_FOUND'],
    budget: 'standard',
    annotations: READ,
    noTool: NO_TOOL,
    handler: (ctx, i) => {
      const out = exportCsv(ctx, i.dataSetKey, i.viewKey);
      return new Reply(200, new RawBody(out.bytes, 'text/csv; charset=utf-8'), { 'Content-Disposition': contentDisposition(out.fileName) });
    },
  }),
  defineOperation({
    id: 'importDataSetRecords',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'POST',
    path: '/v3/data-sets/:dataSetKey/import',
    tag: TAG,
    summary: "Replace a Data Set's records from a CSV file",
    description:
      "Replaces every record with the file's rows (header names are field names, any order; fields not named are left empty). Synchronous and all or nothing; no record events. Answers {status: complete, dataSet}.",
    input: { dataSetKey: dataSetKey(), file: csvFile(), description: description().optional().describe('A new description, up to 1,000 characters.') },
    output: importResultShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND],
    budget: 'standard',
    annotations: REPLACE,
    noTool: NO_TOOL,
    handler: (ctx, i) => ({
      status: 'complete' as const,
      dataSet: v3Full(ctx, importCsv(ctx, decodeFile(i.file), { mode: 'replace', dataSetRef: i.dataSetKey, dataSetField: 'dataSetKey', description: i.description, fileField: 'file.data' })),
    }),
  }),
  defineOperation({
    id: 'listDataSetConnections',
    fidelity: mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)'),
    method: 'GET',
    path: '/v3/data-sets/:dataSetKey/connections',
    tag: TAG,
    summary: 'Template fields linked to a Data Set',
    description: 'Every Drop-Down, Multi-Choice, Sub-Tasks and Table field of the latest template versions that links to this Data Set, with the view it shows (isViewMissing when that view was deleted).',
    input: { dataSetKey: dataSetKey(), ...paging },
    query: ['pageSize', 'after'],
    output: pageOf(dataSetConnectionShape),
    refusals: ['403 FORBIDDEN', NOT_FOUND],
    budget: 'standard',
    annotations: READ,
    noTool: NO_TOOL,
    handler: (ctx, i) => {
      const ds = readableDataSet(ctx, i.dataSetKey);
      const views = viewsOf(ctx, ds.id);
      return paginate(connectionsOf(ctx, ds), i.pageSize ?? 50, i.after, [cursorScope(ctx), 'data-set-connections', ds.key, i.pageSize ?? 50], (c) => v3Connection(c, views));
    },
  }),
];

/** Every write under a Data Set refuses a system set 403 before its body is checked (legacy 3, 7; docs/data-sets.md). */
export const dataSetOperations = operations.map((op) =>
  op.method !== 'GET' && op.path.includes(':dataSetKey') ? { ...op, refuseFirst: (ctx: Ctx, raw: Record<string, unknown>) => refuseSystemWrite(ctx.db, raw.dataSetKey) } : op,
);
