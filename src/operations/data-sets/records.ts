// A Data Set's records (spec v3 4.7): one at a time, in bulk, or through a view's filters and sorts.
import { z } from 'zod';
import type { Ctx } from '../../context';
import { CREATE, CREATE_REPLACING, READ, REMOVE, REPLACE } from '../define';
import { bulkResultShape, dataSetRecordShape, pageOf } from '../shapes/data-sets';
import { cursorScope, decodeCursor, encodeCursor } from '../../domain/paging';
import { bulkCreate, bulkDelete, createRecord, deleteRecord, getRecord, listRecords, updateRecord } from '../../domain/datasets/records';
import { readableDataSet } from '../../domain/datasets/sets';
import { v3Record } from '../../domain/datasets/v3';
import { MAX_RECORDS } from '../../domain/datasets/limits';
import { NOT_FOUND, dataSetKey, dataSetOperation, keyOf, paging, values } from './declare';

/** The store pages records itself (a view filters and sorts them), so the cursor is built here rather than by paginate. */
function recordPage(ctx: Ctx, input: { dataSetKey: string; viewKey?: string; pageSize?: number; after?: string }) {
  const pageSize = input.pageSize ?? 50;
  const ds = readableDataSet(ctx, input.dataSetKey);
  const binding = [cursorScope(ctx), 'data-set-records', ds.key, input.viewKey ?? null, pageSize];
  const offset = decodeCursor(input.after, binding);
  const page = listRecords(ctx, ds.key, { viewKey: input.viewKey, limit: pageSize, offset });
  const hasMore = offset + pageSize < page.total;
  return { items: page.records.map(v3Record), ...(hasMore ? { nextCursor: encodeCursor(offset + pageSize, binding) } : {}), hasMore, total: page.total };
}

const RECORD_NOT_FOUND = '404 DATA_SET_RECORD_NOT_FOUND' as const;

export const recordOperations = [
  dataSetOperation({
    id: 'listDataSetRecords',
    method: 'GET',
    path: '/v3/data-sets/:dataSetKey/records',
    summary: "List a Data Set's records",
    description: "Records in creation order, or with viewKey the view's filters, sorts and hidden fields applied. values are keyed by field key; empty values are omitted.",
    input: () => ({ dataSetKey: dataSetKey(), viewKey: keyOf('view').optional().describe("A view of this Data Set: its filters, sorts and hidden fields apply; omitted = every record in creation order."), ...paging() }),
    query: ['viewKey', 'pageSize', 'after'],
    output: () => pageOf(dataSetRecordShape()),
    refusals: ['403 FORBIDDEN', NOT_FOUND, '404 DATA_SET_VIEW_NOT_FOUND'],
    annotations: READ,
    handler: (ctx, i) => recordPage(ctx, i),
  }),
  dataSetOperation({
    id: 'createDataSetRecord',
    method: 'POST',
    path: '/v3/data-sets/:dataSetKey/records',
    summary: 'Add a record',
    description: 'Every value is validated against its field type; empty values are allowed; at most 5 KB of cell text per record and 10,000 records per Data Set. Raises data_set.record.created.',
    input: () => ({ dataSetKey: dataSetKey(), values: values().optional().describe('Values keyed by field key; each is validated against its field type; empty values are allowed.') }),
    output: dataSetRecordShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND],
    status: 201,
    annotations: CREATE,
    handler: (ctx, i) => v3Record(createRecord(ctx, i.dataSetKey, i)),
  }),
  dataSetOperation({
    id: 'bulkCreateDataSetRecords',
    method: 'POST',
    path: '/v3/data-sets/:dataSetKey/records/bulk',
    summary: 'Add or replace records in bulk',
    description: 'mode append adds the records; replace deletes every existing record first. Atomic: all records are valid or nothing changes. Raises no per-record events.',
    input: () => ({
      dataSetKey: dataSetKey(),
      mode: z.enum(['append', 'replace'], { error: 'must be append or replace' }).describe('append or replace.'),
      // The count is checked before the items (zod stops at max), so a million records cost no validation (docs/reliability.md 9).
      records: z
        .array(z.object({ values: values().optional() }), { error: 'must be an array of {values}' })
        .max(MAX_RECORDS, { error: `must hold at most ${MAX_RECORDS.toLocaleString('en')} records (a Data Set holds at most ${MAX_RECORDS.toLocaleString('en')})` })
        .meta({ minItems: 1 })
        .describe('The records, at least one.'),
    }),
    output: bulkResultShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND],
    status: 201,
    annotations: CREATE_REPLACING,
    handler: (ctx, i) => bulkCreate(ctx, i.dataSetKey, i),
  }),
  // Before the :recordKey routes: /records/bulk is not a record.
  dataSetOperation({
    id: 'bulkDeleteDataSetRecords',
    method: 'DELETE',
    path: '/v3/data-sets/:dataSetKey/records/bulk',
    summary: 'Delete records in bulk',
    description: 'Deletes the records named (every key must name a record of this Data Set, else nothing is deleted). Raises one data_set.record.deleted per record.',
    input: () => ({ dataSetKey: dataSetKey(), recordKeys: z
        .array(z.guid({ error: 'must be a record key (GUID)' }), { error: 'must be an array of record keys' })
        .max(MAX_RECORDS, { error: `must name at most ${MAX_RECORDS.toLocaleString('en')} keys (a Data Set holds at most ${MAX_RECORDS.toLocaleString('en')} records)` })
        .describe('Keys of the records to delete.') }),
    refusals: ['403 FORBIDDEN', NOT_FOUND, RECORD_NOT_FOUND],
    status: 204,
    annotations: REMOVE,
    handler: (ctx, i) => void bulkDelete(ctx, i.dataSetKey, i),
  }),
  dataSetOperation({
    id: 'getDataSetRecord',
    method: 'GET',
    path: '/v3/data-sets/:dataSetKey/records/:recordKey',
    summary: 'Get a record',
    description: 'One record with every value.',
    input: () => ({ dataSetKey: dataSetKey(), recordKey: keyOf('record') }),
    output: dataSetRecordShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND, RECORD_NOT_FOUND],
    annotations: READ,
    handler: (ctx, i) => v3Record(getRecord(ctx, i.dataSetKey, i.recordKey)),
  }),
  dataSetOperation({
    id: 'updateDataSetRecord',
    method: 'PATCH',
    path: '/v3/data-sets/:dataSetKey/records/:recordKey',
    summary: "Change a record's values",
    description: 'PATCH: only the fields sent change; null or "" clears one. Raises data_set.record.updated with the changed fields only (none when nothing changed).',
    input: () => ({ dataSetKey: dataSetKey(), recordKey: keyOf('record'), values: values().optional().describe('The values to change, keyed by field key; null or "" clears one; fields not sent keep their values.') }),
    output: dataSetRecordShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND, RECORD_NOT_FOUND],
    annotations: REPLACE,
    handler: (ctx, i) => v3Record(updateRecord(ctx, i.dataSetKey, i.recordKey, i, 'patch')),
  }),
  dataSetOperation({
    id: 'deleteDataSetRecord',
    method: 'DELETE',
    path: '/v3/data-sets/:dataSetKey/records/:recordKey',
    summary: 'Delete a record',
    description: 'Raises data_set.record.deleted. Checklist answers already referencing the record keep it (answers are snapshots).',
    input: () => ({ dataSetKey: dataSetKey(), recordKey: keyOf('record') }),
    refusals: ['403 FORBIDDEN', NOT_FOUND, RECORD_NOT_FOUND],
    status: 204,
    annotations: REMOVE,
    handler: (ctx, i) => deleteRecord(ctx, i.dataSetKey, i.recordKey),
  }),
];
