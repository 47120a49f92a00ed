// Field answers of a task (spec v3 4.3 "Fields ... read all or one field; answer one field or up
// to 50 in one call"; bodies in docs/tasks.md). Answering a field is what satisfies a required control.
import { z } from 'zod';
import type { Operation } from '../define';
import { READ, mixed, REPLACE } from '../define';
import { guid } from '../schemas';
import { field, fieldList } from '../shapes/tasks';
import { answerField, answerFields, getField, listFields, MAX_FIELDS_PER_CALL } from '../../domain/tasks/fields';
import { taskOperation, whereText, type WhereKind } from './where';

export const NO_FIELD_TOOL = 'The spec names no MCP tool for the field, file and row routes (4.3); an MCP client answers fields over REST or through the parameters of POST /v3/checklists.';
export const fieldKeyInput = () => ({ fieldKey: guid('a field key (GUID)').describe('The field key (GUID)') });
const required = (msg: string) => z.unknown().refine((v) => v !== undefined, { error: msg });
const VALUE = 'The answer in the form of the field type (docs/tasks.md "Answering fields"); null clears';

export const fieldOperations = (w: WhereKind): Operation[] => [
  taskOperation(w, {
    id: 'listTaskFields',
    fidelity: mixed('4.3', 'docs/tasks.md', 'request and response bodies beyond the names the spec gives (4.3: not shown)'),
    noTool: NO_FIELD_TOOL,
    method: 'GET',
    suffix: '/fields',
    summary: `Read the fields of ${whereText(w)}`,
    description: 'Returns {fields}: current field values, omitting fields a condition currently hides.',
    input: {},
    output: fieldList,
    refusals: ['403 FORBIDDEN'],
    budget: 'standard',
    annotations: READ,
    handler: (ctx, _input, t) => listFields(ctx, t()),
  }),
  taskOperation(w, {
    id: 'answerTaskFields',
    fidelity: mixed('4.3', 'docs/tasks.md', 'request and response bodies beyond the names the spec gives (4.3: not shown)'),
    noTool: NO_FIELD_TOOL,
    method: 'PATCH',
    suffix: '/fields',
    summary: `Answer up to ${MAX_FIELDS_PER_CALL} fields of ${whereText(w)}`,
    description: 'Body {fields: [{key, value}]}; all or nothing; null clears. Returns {fields}. Refused (409) while the task is halted.',
    input: {
      fields: z
        .array(
          z.object(
            {
              key: guid('a field key (GUID)').describe('The field key (GUID); each key once'),
              value: required('is required (null clears the answer)').describe(VALUE),
            },
            { error: 'must be {key, value}' },
          ),
          { error: 'must be an array of {key, value}' },
        )
        .min(1, { error: 'must answer at least one field' })
        .max(MAX_FIELDS_PER_CALL, { error: `must answer at most ${MAX_FIELDS_PER_CALL} fields in one call` })
        .describe(`The answers, 1 to ${MAX_FIELDS_PER_CALL}`),
    },
    output: fieldList,
    refusals: ['403 FORBIDDEN'],
    budget: 'standard',
    annotations: REPLACE,
    handler: (ctx, input, t) => answerFields(ctx, t(), input.fields),
  }),
  taskOperation(w, {
    id: 'getTaskField',
    fidelity: mixed('4.3', 'docs/tasks.md', 'request and response bodies beyond the names the spec gives (4.3: not shown)'),
    noTool: NO_FIELD_TOOL,
    method: 'GET',
    suffix: '/fields/:fieldKey',
    summary: `Read one field of ${whereText(w)}`,
    description: 'Returns the field object, also for a field a condition hides.',
    input: { ...fieldKeyInput() },
    output: field,
    refusals: ['403 FORBIDDEN', '404 FIELD_NOT_FOUND'],
    budget: 'standard',
    annotations: READ,
    handler: (ctx, input, t) => getField(ctx, t(), input.fieldKey),
  }),
  taskOperation(w, {
    id: 'answerTaskField',
    fidelity: mixed('4.3', 'docs/tasks.md', 'request and response bodies beyond the names the spec gives (4.3: not shown)'),
    noTool: NO_FIELD_TOOL,
    method: 'PUT',
    suffix: '/fields/:fieldKey',
    summary: `Answer one field of ${whereText(w)}`,
    description: 'Body {value}; null clears. Returns the field. Refused (409) while the task is halted.',
    input: { ...fieldKeyInput(), value: required('is required (null clears the answer)').describe(VALUE) },
    output: field,
    refusals: ['403 FORBIDDEN', '404 FIELD_NOT_FOUND'],
    budget: 'standard',
    annotations: REPLACE,
    handler: (ctx, input, t) => answerField(ctx, t(), input.fieldKey, input.value),
  }),
];
