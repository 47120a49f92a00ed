// CSV in and out of a Data Set (spec v3 4.1 rule 1: a file travels base64-encoded in the JSON body).
import { z } from 'zod';
import { validationError } from '../../errors';
import { READ, REPLACE, Reply } from '../define';
import { RawBody } from '../raw-body';
import { importResultShape } from '../shapes/data-sets';
import { BASE64_PATTERN } from '../input-kinds';
import { checkCsvSize, contentDisposition, exportCsv, importCsv } from '../../domain/datasets/csv';
import { v3Full } from '../../domain/datasets/v3';
import { NOT_FOUND, dataSetKey, dataSetOperation, description, keyOf } from './declare';

export const csvFile = () =>
  z
    .strictObject(
      {
        name: z.string({ error: 'must be a string' }).max(255, { error: 'must be at most 255 characters' }).optional().describe('The file name; a new Data Set is named after it (without extension) unless name is sent.'),
        data: z.string({ error: 'must be the CSV file base64-encoded' }).meta({ contentEncoding: 'base64', pattern: BASE64_PATTERN }).describe('The CSV file (UTF-8, optional byte-order mark, header row of field names), base64-encoded; at most 5 MB decoded.'),
      },
      { error: 'must be an object {name, data}' },
    )
    .describe('The CSV file, base64-encoded in the JSON body (spec v3 4.1 rule 1).');

export function decodeFile(file: { name?: string; data: string }) {
  // Copied only when it holds white space (a 5 MB file is 6.7 MB of base64).
  const b64 = /\s/.test(file.data) ? file.data.replace(/\s+/g, '') : file.data;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 === 1) throw validationError('file.data is not base64.', 'file.data');
  // Over 5 MB decoded is refused before decoding (the same refusal parseCsv gives).
  checkCsvSize(Math.floor((b64.length * 3) / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0), 'file.data');
  return { bytes: Buffer.from(b64, 'base64'), fileName: file.name };
}

export const csvOperations = [
  dataSetOperation({
    id: 'exportDataSet',
    method: 'GET',
    path: '/v3/data-sets/:dataSetKey/export',
    summary: 'Export a Data Set as CSV',
    description:
      "Answers text/csv (UTF-8 with byte-order mark; Content-Disposition names <data-set>-<view>-<date>.csv): the view's visible columns (field names as the header) and the records passing its filters, in its sort order. Default view when viewKey is omitted. System Data Sets are refused (403).",
    input: () => ({ dataSetKey: dataSetKey(), viewKey: keyOf('view').optional().describe('The view to export; the default view (All Records) when omitted.') }),
    query: ['viewKey'],
    output: () => z.string().describe('The CSV text (sent as text/csv, not JSON).'),
    contentType: 'text/csv',
    refusals: ['403 FORBIDDEN', NOT_FOUND, '404 DATA_SET_VIEW_NOT_FOUND'],
    annotations: READ,
    handler: (ctx, i) => {
      const out = exportCsv(ctx, i.dataSetKey, i.viewKey);
      return new Reply(200, new RawBody(out.bytes, 'text/csv; charset=utf-8'), { 'Content-Disposition': contentDisposition(out.fileName) });
    },
  }),
  dataSetOperation({
    id: 'importDataSetRecords',
    method: 'POST',
    path: '/v3/data-sets/:dataSetKey/import',
    summary: "Replace a Data Set's records from a CSV file",
    description:
      "Replaces every record with the file's rows (header names are field names, any order; fields not named are left empty). Synchronous and all or nothing; no record events. Answers {status: complete, dataSet}.",
    input: () => ({ dataSetKey: dataSetKey(), file: csvFile(), description: description().optional().describe('A new description, up to 1,000 characters.') }),
    output: importResultShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND],
    annotations: REPLACE,
    handler: (ctx, i) => ({
      status: 'complete' as const,
      dataSet: v3Full(ctx, importCsv(ctx, decodeFile(i.file), { mode: 'replace', dataSetRef: i.dataSetKey, dataSetField: 'dataSetKey', description: i.description, fileField: 'file.data' })),
    }),
  }),
];
