// A Data Set's views (spec v3 4.7): named filters, sorts and hidden fields; All Records always exists.
import { z } from 'zod';
import { CREATE, READ, REMOVE, REPLACE } from '../define';
import { dataSetViewShape } from '../shapes/data-sets';
import { OPERATORS } from '../../domain/datasets/query';
import { v3View } from '../../domain/datasets/v3';
import { createView, deleteView, getView, listViews, updateView } from '../../domain/datasets/views';
import { NOT_FOUND, dataSetKey, dataSetOperation, keyOf, listUnder, name } from './declare';

const filters = () =>
  z
    .array(
      z.object({
        fieldKey: z.guid({ error: 'must be a field key (GUID)' }).describe('A field of this Data Set.'),
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
        fieldKey: z.guid({ error: 'must be a field key (GUID)' }).describe('A field of this Data Set.'),
        direction: z.enum(['asc', 'desc'], { error: 'must be asc or desc' }).optional().describe('asc (default) or desc.'),
        position: z.number({ error: 'must be an integer' }).int({ error: 'must be an integer' }).optional().describe('Order of this sort among the sorts, lowest first.'),
      }),
      { error: 'must be an array of {fieldKey, direction, position}' },
    )
    .describe('Sorts, applied by position, lowest first.');
const hiddenFields = () => z.array(z.guid({ error: 'must be a field key (GUID)' }), { error: 'must be an array of field keys' }).describe('Field keys the view hides.');

const VIEW_NOT_FOUND = '404 DATA_SET_VIEW_NOT_FOUND' as const;

export const viewOperations = [
  listUnder({
    id: 'listDataSetViews',
    sub: 'views',
    summary: "List a Data Set's views",
    description: 'All Records first, then the others in creation order.',
    item: dataSetViewShape,
    list: (ctx, key) => {
      const { ds, views } = listViews(ctx, key);
      return { key: ds.key, all: views, map: v3View };
    },
  }),
  dataSetOperation({
    id: 'createDataSetView',
    method: 'POST',
    path: '/v3/data-sets/:dataSetKey/views',
    summary: 'Add a view',
    description: 'A named view (unique name, at most 20 views per Data Set) with filters (AND; thirteen operators), sorts and hidden fields.',
    input: () => ({
      dataSetKey: dataSetKey(),
      name: name('view'),
      filters: filters().optional().describe('Filters, all of which a record must pass (AND).'),
      sorts: sorts().optional().describe('Sorts, applied by position, lowest first.'),
      hiddenFields: hiddenFields().optional().describe('Field keys the view hides.'),
    }),
    output: dataSetViewShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND],
    status: 201,
    annotations: CREATE,
    handler: (ctx, i) => v3View(createView(ctx, i.dataSetKey, i)),
  }),
  dataSetOperation({
    id: 'getDataSetView',
    method: 'GET',
    path: '/v3/data-sets/:dataSetKey/views/:viewKey',
    summary: 'Get a view',
    description: 'One view with its filters, sorts and hidden fields.',
    input: () => ({ dataSetKey: dataSetKey(), viewKey: keyOf('view') }),
    output: dataSetViewShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND, VIEW_NOT_FOUND],
    annotations: READ,
    handler: (ctx, i) => v3View(getView(ctx, i.dataSetKey, i.viewKey)),
  }),
  dataSetOperation({
    id: 'updateDataSetView',
    method: 'PATCH',
    path: '/v3/data-sets/:dataSetKey/views/:viewKey',
    summary: 'Change a view',
    description: 'PATCH: name, and filters, sorts or hiddenFields each replaced whole when sent. The All Records view cannot be renamed (400 on name); its filters, sorts and hiddenFields change as on any other view.',
    input: () => ({
      dataSetKey: dataSetKey(),
      viewKey: keyOf('view'),
      name: name('view').optional().describe('The new name, up to 200 characters, unique within the Data Set.'),
      filters: filters().optional().describe('Replaces every filter when sent.'),
      sorts: sorts().optional().describe('Replaces every sort when sent.'),
      hiddenFields: hiddenFields().optional().describe('Replaces the hidden fields when sent.'),
    }),
    output: dataSetViewShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND, VIEW_NOT_FOUND],
    annotations: REPLACE,
    handler: (ctx, i) => v3View(updateView(ctx, i.dataSetKey, i.viewKey, i, 'patch')),
  }),
  dataSetOperation({
    id: 'deleteDataSetView',
    method: 'DELETE',
    path: '/v3/data-sets/:dataSetKey/views/:viewKey',
    summary: 'Delete a view',
    description: 'The All Records view cannot be deleted (400). Deleting a view template fields link to is allowed; those templates then get a data_set_link_removed warning on validation.',
    input: () => ({ dataSetKey: dataSetKey(), viewKey: keyOf('view') }),
    refusals: ['403 FORBIDDEN', NOT_FOUND, VIEW_NOT_FOUND],
    status: 204,
    annotations: REMOVE,
    handler: (ctx, i) => deleteView(ctx, i.dataSetKey, i.viewKey),
  }),
];
