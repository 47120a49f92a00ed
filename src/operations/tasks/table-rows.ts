// Rows of a Table field (spec v3 4.3 ".../fields/{fieldKey}/rows to add rows, remove rows, set
// cells"; docs/tasks.md "Table rows"). Indexes count from 1, like the Table payload of 6.2.
import { z } from 'zod';
import type { Operation } from '../define';
import { CREATE, REMOVE, REPLACE } from '../define';
import { guid, text } from '../input-kinds';
import { field } from '../shapes/tasks';
import { addRows, removeRows, setCells } from '../../domain/tasks/fields';
import { fieldOperation } from './fields';
import { position } from './inputs';
import { whereText, type WhereKind } from './where';

const ROW_INDEXES = 'must be row numbers from 1, comma-separated';

export const rowOperations = (w: WhereKind): Operation[] => [
  fieldOperation(w, {
    id: 'addTableRows',
    method: 'POST',
    suffix: '/rows',
    summary: `Add rows to a Table field of ${whereText(w)}`,
    description: 'Body {rows: [[cell, ...], ...]} (strings or null, in column order); appended. Returns the field. Refused (409) while the task is halted.',
    input: () => ({
      rows: z
        .array(z.unknown(), { error: 'must be an array of rows' })
        .min(1, { error: 'must add at least one row' })
        .max(1000, { error: 'must add at most 1,000 rows' })
        .describe('Rows to append, each an array of cell strings (or null) in column order, no wider than the table'),
    }),
    output: field,
    annotations: CREATE,
    handler: (ctx, input, t) => addRows(ctx, t(), input.fieldKey, input.rows),
  }),
  fieldOperation(w, {
    id: 'removeTableRows',
    method: 'DELETE',
    suffix: '/rows',
    summary: `Remove rows from a Table field of ${whereText(w)}`,
    description: 'Query rowIndexes=1,3 (from 1). A row that does not exist is refused (400). Returns the field.',
    input: () => ({
      rowIndexes: z
        .string({ error: ROW_INDEXES })
        .regex(/^\s*[1-9]\d{0,5}\s*(,\s*[1-9]\d{0,5}\s*)*$/, { error: ROW_INDEXES })
        .describe('Row numbers from 1, comma-separated, e.g. 1,3'),
    }),
    query: ['rowIndexes'],
    output: field,
    annotations: REMOVE,
    handler: (ctx, input, t) =>
      removeRows(
        ctx,
        t(),
        input.fieldKey,
        input.rowIndexes.split(',').map((s) => Number(s.trim())),
      ),
  }),
  fieldOperation(w, {
    id: 'setTableCells',
    method: 'PATCH',
    suffix: '/rows',
    summary: `Set cells of a Table field of ${whereText(w)}`,
    description: 'Body {cells: [{rowIndex, columnIndex | columnKey, value}]} (indexes from 1; value a string or null). Returns the field.',
    input: () => ({
      cells: z
        .array(
          z.object(
            {
              rowIndex: position('row number from 1').describe('Row number, from 1'),
              columnIndex: position('column number from 1').optional().describe('Column number, from 1 (or columnKey)'),
              columnKey: guid('a column key (GUID)').optional().describe('Column key (or columnIndex)'),
              value: text(10_000, 'must be a string or null').nullable().describe('The cell: a string, or null to empty it'),
            },
            { error: 'must be {rowIndex, columnIndex | columnKey, value}' },
          ),
          { error: 'must be an array of cells' },
        )
        .min(1, { error: 'must set at least one cell' })
        .max(1000, { error: 'must set at most 1,000 cells' })
        .describe('The cells to set, 1 to 1,000'),
    }),
    output: field,
    annotations: REPLACE,
    handler: (ctx, input, t) => setCells(ctx, t(), input.fieldKey, input.cells),
  }),
];
