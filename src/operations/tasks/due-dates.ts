// Due dates (spec v3 2.4 dueDateTime, 4.1 rules 6 and 7; EMULATOR.md: PUT {dueDateTime},
// DELETE clears, both answer the task).
import type { Operation } from '../define';
import { READ, REPLACE, REMOVE } from '../define';
import { instant } from '../schemas';
import { dueDateOfTask, task } from '../shapes/tasks';
import { clearDueDate, readDueDate, setDueDate } from '../../domain/tasks/due';
import { taskOperation, whereText, type WhereKind } from './where';

export const dueDateOperations = (w: WhereKind): Operation[] => [
  taskOperation(w, {
    id: 'getTaskDueDate',
    noTool: 'The spec names no tool for this read: it is covered by get_task (4.3).',
    method: 'GET',
    suffix: '/due-date',
    summary: `Read the due date of ${whereText(w)}`,
    description: 'Returns {dueDateTime}; an empty object when the task has none.',
    input: () => ({}),
    output: dueDateOfTask,
    refusals: ['403 FORBIDDEN'],
    annotations: READ,
    handler: (ctx, _input, t) => readDueDate(ctx, t()),
  }),
  taskOperation(w, {
    id: 'setTaskDueDate',
    tool: 'set_task_due_date',
    method: 'PUT',
    suffix: '/due-date',
    summary: `Set the due date of ${whereText(w)}`,
    description:
      'Body {dueDateTime}. Returns the task. A date set by hand is no longer moved by the template\'s rules. The activity entry is written in the X-SVC-Timezone zone, else the member profile zone, else UTC.',
    input: () => ({ dueDateTime: instant().describe('The due date: ISO 8601; Z = UTC, an offset is honoured, no offset = UTC') }),
    output: task,
    refusals: ['403 FORBIDDEN'],
    annotations: REPLACE,
    handler: (ctx, input, t) => setDueDate(ctx, t(), input.dueDateTime),
  }),
  taskOperation(w, {
    id: 'clearTaskDueDate',
    tool: 'clear_task_due_date',
    method: 'DELETE',
    suffix: '/due-date',
    summary: `Clear the due date of ${whereText(w)}`,
    description: 'Returns the task.',
    input: () => ({}),
    output: task,
    refusals: ['403 FORBIDDEN'],
    annotations: REMOVE,
    handler: (ctx, _input, t) => clearDueDate(ctx, t()),
  }),
];
