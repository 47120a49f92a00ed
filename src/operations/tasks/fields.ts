// Field answers of a task (spec v3 4.3 "Fields ... read all or one field; answer one field or up
// to 50 in one call"; bodies in docs/tasks.md). Answering a field is what satisfies a required control.
import { z } from 'zod';
import type { Operation, Refusal } from '../define';
import { READ, REPLACE } from '../define';
import { guid } from '../input-kinds';
import { field, fieldList } from '../shapes/tasks';
import { answerField, answerFields, getField, listFields, MAX_FIELDS_PER_CALL } from '../../domain/tasks/fields';
import { taskOperation, taskRead, whereText, type TaskOperationSpec, type WhereKind } from './where';

const NO_FIELD_TOOL = 'The spec names no MCP tool for the field, file and row routes (4.3); an MCP client answers fields over REST or through the parameters of POST /v3/checklists.';
const fieldKeyInput = () => ({ fieldKey: guid('a field key (GUID)').describe('The field key (GUID)') });
type FieldKeyShape = ReturnType<typeof fieldKeyInput>;

type FieldOperationSpec<S extends z.ZodRawShape> = Omit<TaskOperationSpec<S & FieldKeyShape>, 'tool' | 'noTool' | 'input' | 'refusals'> & {
  /** The properties besides the path keys. */
  input: () => S;
  /** Refusals besides 403 and 404 FIELD_NOT_FOUND. */
  refusals?: Refusal[];
};

/**
 * An operation on one field of a task, at `.../fields/{fieldKey}` + `suffix`: the field key joins
 * the input, and the task's refusals (403) and the field's lookup (404) come before `refusals`.
 */
export function fieldOperation<S extends z.ZodRawShape>(w: WhereKind, spec: FieldOperationSpec<S>): Operation {
  return taskOperation<S & FieldKeyShape>(w, {
    ...spec,
    noTool: NO_FIELD_TOOL,
    suffix: `/fields/:fieldKey${spec.suffix}`,
    input: () => ({ ...fieldKeyInput(), ...spec.input() }),
    refusals: ['403 FORBIDDEN', '404 FIELD_NOT_FOUND', ...(spec.refusals ?? [])],
  });
}
const required = (msg: string) => z.unknown().refine((v) => v !== undefined, { error: msg });
const VALUE = 'The answer in the form of the field type (docs/tasks.md "Answering fields"); null clears';

export const fieldOperations = (w: WhereKind): Operation[] => [
  taskRead(w, {
    id: 'listTaskFields',
    noTool: NO_FIELD_TOOL,
    suffix: '/fields',
    summary: `Read the fields of ${whereText(w)}`,
    description: 'Returns {fields}: current field values, omitting fields a condition currently hides.',
    output: fieldList,
    refusals: ['403 FORBIDDEN'],
    run: listFields,
  }),
  taskOperation(w, {
    id: 'answerTaskFields',
    noTool: NO_FIELD_TOOL,
    method: 'PATCH',
    suffix: '/fields',
    summary: `Answer up to ${MAX_FIELDS_PER_CALL} fields of ${whereText(w)}`,
    description: 'Body {fields: [{key, value}]}; all or nothing; null clears. Returns {fields}. Refused (409) while the task is halted.',
    input: () => ({
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
    }),
    output: fieldList,
    refusals: ['403 FORBIDDEN'],
    annotations: REPLACE,
    handler: (ctx, input, t) => answerFields(ctx, t(), input.fields),
  }),
  fieldOperation(w, {
    id: 'getTaskField',
    method: 'GET',
    suffix: '',
    summary: `Read one field of ${whereText(w)}`,
    description: 'Returns the field object, also for a field a condition hides.',
    input: () => ({}),
    output: field,
    annotations: READ,
    handler: (ctx, input, t) => getField(ctx, t(), input.fieldKey),
  }),
  fieldOperation(w, {
    id: 'answerTaskField',
    method: 'PUT',
    suffix: '',
    summary: `Answer one field of ${whereText(w)}`,
    description: 'Body {value}; null clears. Returns the field. Refused (409) while the task is halted.',
    input: () => ({ value: required('is required (null clears the answer)').describe(VALUE) }),
    output: field,
    annotations: REPLACE,
    handler: (ctx, input, t) => answerField(ctx, t(), input.fieldKey, input.value),
  }),
];
