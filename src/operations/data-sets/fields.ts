// A Data Set's fields (spec v3 4.7): at most 50, names unique, position the only order.
import { z } from 'zod';
import { CREATE, READ, REMOVE, REPLACE } from '../define';
import { dataSetFieldShape, linkedTemplatesDetail } from '../shapes/data-sets';
import { createField, deleteField, getField, listFields, updateField } from '../../domain/datasets/fields';
import { v3Field } from '../../domain/datasets/v3';
import { NOT_FOUND, dataSetKey, dataSetOperation, description, fieldType, keyOf, listUnder, name } from './declare';

export const fieldOperations = [
  listUnder({
    id: 'listDataSetFields',
    sub: 'fields',
    summary: "List a Data Set's fields",
    description: 'The fields in position order.',
    item: dataSetFieldShape,
    list: (ctx, key) => {
      const { ds, fields } = listFields(ctx, key);
      return { key: ds.key, all: fields, map: v3Field };
    },
  }),
  dataSetOperation({
    id: 'createDataSetField',
    method: 'POST',
    path: '/v3/data-sets/:dataSetKey/fields',
    summary: 'Add a field',
    description: 'Adds a field at the end (at most 50 per Data Set; names unique); existing records gain it empty.',
    input: () => ({ dataSetKey: dataSetKey(), name: name('field'), type: fieldType(), description: description().optional().describe('Up to 1,000 characters.') }),
    output: dataSetFieldShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND],
    status: 201,
    annotations: CREATE,
    handler: (ctx, i) => v3Field(createField(ctx, i.dataSetKey, i)),
  }),
  dataSetOperation({
    id: 'getDataSetField',
    method: 'GET',
    path: '/v3/data-sets/:dataSetKey/fields/:fieldKey',
    summary: 'Get a field',
    description: 'One field of a Data Set.',
    input: () => ({ dataSetKey: dataSetKey(), fieldKey: keyOf('field') }),
    output: dataSetFieldShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND, '404 DATA_SET_FIELD_NOT_FOUND'],
    annotations: READ,
    handler: (ctx, i) => v3Field(getField(ctx, i.dataSetKey, i.fieldKey)),
  }),
  dataSetOperation({
    id: 'updateDataSetField',
    method: 'PATCH',
    path: '/v3/data-sets/:dataSetKey/fields/:fieldKey',
    summary: 'Rename, retype or reposition a field',
    description:
      'PATCH: only what is sent. A type change is refused (400) when an existing value would become invalid; changing to text always succeeds; values are converted. position (from 0) is the only way to reorder fields.',
    input: () => ({
      dataSetKey: dataSetKey(),
      fieldKey: keyOf('field'),
      name: name('field').optional().describe('The new name, up to 200 characters, unique within the Data Set.'),
      type: fieldType().optional().describe('The new type: text, number, date, email, url or boolean; values are re-checked and converted.'),
      description: description().nullable().optional().describe('Up to 1,000 characters; null clears.'),
      position: z.number({ error: 'must be an integer from 0' }).int({ error: 'must be an integer from 0' }).min(0, { error: 'must be an integer from 0' }).optional().describe('The new position, from 0.'),
    }),
    output: dataSetFieldShape,
    refusals: ['403 FORBIDDEN', NOT_FOUND, '404 DATA_SET_FIELD_NOT_FOUND'],
    annotations: REPLACE,
    handler: (ctx, i) => v3Field(updateField(ctx, i.dataSetKey, i.fieldKey, i, 'patch')),
  }),
  dataSetOperation({
    id: 'deleteDataSetField',
    method: 'DELETE',
    path: '/v3/data-sets/:dataSetKey/fields/:fieldKey',
    summary: 'Delete a field and its values',
    description: 'The only field is 400 (one must remain); a field a linked template field shows (Display Field) or maps (Table column) is 409 CONFLICT with `templates`.',
    input: () => ({ dataSetKey: dataSetKey(), fieldKey: keyOf('field') }),
    refusals: ['403 FORBIDDEN', NOT_FOUND, '404 DATA_SET_FIELD_NOT_FOUND', '409 CONFLICT'],
    refusalDetails: () => ({ '409 CONFLICT': linkedTemplatesDetail() }),
    status: 204,
    annotations: REMOVE,
    handler: (ctx, i) => deleteField(ctx, i.dataSetKey, i.fieldKey),
  }),
];
