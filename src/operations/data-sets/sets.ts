// The Data Sets themselves (spec v3 4.7; 5.6: deleting one is for administrators).
import { z } from 'zod';
import { CREATE, READ, REMOVE, REPLACE } from '../define';
import { queryBool } from '../input-kinds';
import { dataSetShape, dataSetSummaryShape, importResultShape, linkedTemplatesDetail, pageOf } from '../shapes/data-sets';
import { cursorScope, paginate } from '../../domain/paging';
import { importCsv } from '../../domain/datasets/csv';
import { createDataSet, deleteDataSet, getDataSet, listDataSets, updateDataSet } from '../../domain/datasets/sets';
import { v3Full, v3Summary } from '../../domain/datasets/v3';
import { csvFile, decodeFile } from './csv';
import { NOT_FOUND, dataSetKey, dataSetOperation, description, fieldType, name, paging } from './declare';

export const setOperations = [
  dataSetOperation({
    id: 'listDataSets',
    method: 'GET',
    path: '/v3/data-sets',
    summary: 'List Data Sets',
    description: "The workspace's organisation Data Sets by name, then the system Data Sets (read-only, e.g. countries), with field and record counts.",
    input: paging,
    query: ['pageSize', 'after'],
    output: () => pageOf(dataSetSummaryShape()),
    refusals: ['403 FORBIDDEN'],
    annotations: READ,
    handler: (ctx, i) => paginate(listDataSets(ctx), i.pageSize ?? 50, i.after, [cursorScope(ctx), 'data-sets', i.pageSize ?? 50], (s) => v3Summary(ctx, s)),
  }),
  dataSetOperation({
    id: 'createDataSet',
    method: 'POST',
    path: '/v3/data-sets',
    summary: 'Create a Data Set',
    description: 'Creates an organisation Data Set, Unfiled, with the fields given (a single text field named Name when fields is omitted) and the default All Records view. Needs Library.Creator.',
    input: () => ({
      name: name('Data Set'),
      description: description().optional().describe('Up to 1,000 characters.'),
      fields: z
        .array(z.object({ name: name('field'), type: fieldType(), description: description().optional().describe('Up to 1,000 characters.') }), { error: 'must be an array of {name, type, description}' })
        // src/domain/datasets/sets.ts: 1 to 50 fields (legacy 8), names unique (not said here: case-insensitive).
        .meta({ minItems: 1, maxItems: 50 })
        .optional()
        .describe('The fields, 1 to 50, names unique within the Data Set.'),
    }),
    output: dataSetShape,
    refusals: ['403 FORBIDDEN'],
    status: 201,
    annotations: CREATE,
    handler: (ctx, i) => v3Full(ctx, createDataSet(ctx, i)),
  }),
  dataSetOperation({
    id: 'importDataSet',
    method: 'POST',
    path: '/v3/data-sets/import',
    summary: 'Create a Data Set from a CSV file',
    description:
      'Creates a Data Set from a CSV file: the header row names the fields; each column gets the narrowest type all its cells are (number, boolean, date, email, url, else text). Synchronous: the whole file is valid or nothing is created; no record events.',
    input: () => ({
      file: csvFile(),
      name: name('Data Set').optional().describe('The Data Set name; defaults to the file name without extension.'),
      description: description().optional().describe('Up to 1,000 characters.'),
    }),
    output: importResultShape,
    refusals: ['403 FORBIDDEN'],
    status: 201,
    annotations: CREATE,
    handler: (ctx, i) => ({ status: 'complete' as const, dataSet: v3Full(ctx, importCsv(ctx, decodeFile(i.file), { mode: 'create', name: i.name, description: i.description, fileField: 'file.data' })) }),
  }),
  dataSetOperation({
    id: 'getDataSet',
    method: 'GET',
    path: '/v3/data-sets/:dataSetKey',
    summary: 'Get a Data Set',
    description: 'One Data Set with its fields and views; no records.',
    input: () => ({ dataSetKey: dataSetKey() }),
    output: dataSetShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND],
    annotations: READ,
    handler: (ctx, i) => v3Full(ctx, getDataSet(ctx, i.dataSetKey)),
  }),
  dataSetOperation({
    id: 'updateDataSet',
    method: 'PATCH',
    path: '/v3/data-sets/:dataSetKey',
    summary: 'Change a Data Set',
    description: 'Changes name and description (PATCH: only what is sent; description null clears). A system Data Set is read-only (403).',
    input: () => ({ dataSetKey: dataSetKey(), name: name('Data Set').optional().describe('The new name, up to 200 characters.'), description: description().nullable().optional().describe('Up to 1,000 characters; null clears.') }),
    output: dataSetShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND],
    annotations: REPLACE,
    handler: (ctx, i) => v3Full(ctx, updateDataSet(ctx, i.dataSetKey, { name: i.name, description: i.description }, 'patch')),
  }),
  dataSetOperation({
    id: 'deleteDataSet',
    method: 'DELETE',
    path: '/v3/data-sets/:dataSetKey',
    summary: 'Delete a Data Set',
    description:
      'Administrators only (spec v3 5.6). A Data Set linked to template fields is 409 CONFLICT with `templates` ({key, name}) unless force is true, which deletes it and leaves those fields without their records. System Data Sets cannot be deleted (403).',
    input: () => ({ dataSetKey: dataSetKey(), force: queryBool().describe('Delete even when template fields link to it; default false.') }),
    query: ['force'],
    refusals: ['403 FORBIDDEN', NOT_FOUND, '409 CONFLICT'],
    refusalDetails: () => ({ '409 CONFLICT': linkedTemplatesDetail() }),
    status: 204,
    annotations: REMOVE,
    handler: (ctx, i) => deleteDataSet(ctx, i.dataSetKey, i.force === true),
  }),
];
