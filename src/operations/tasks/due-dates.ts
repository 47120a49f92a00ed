// Due dates (spec v3 2.4 dueDateTime, 4.1 rules 6 and 7; EMULATOR.md: PUT {dueDateTime},
// DELETE clears, both answer the task).
import type { Operation } from '../define';
import { REPLACE, mixed } from '../define';
import { instant } from '../input-kinds';
import { dueDateOfTask, task } from '../shapes/tasks';
import { clearDueDate, readDueDate, setDueDate } from '../../domain/tasks/due';
import { taskClear, taskOperation, taskRead, whereText, type WhereKind } from './where';

// 5.8 "any Administrator or Member" read with 5.4's read check, as for assigning (docs/decisions.md, issue 39 f).
const READS_FIRST = mixed('4.3, 5.4, 5.8', 'docs/decisions.md', 'a member who may not open the checklist is refused (5.4 read with 5.8, as for assigning: docs/decisions.md); the request and response bodies');

export const dueDateOperations = (w: WhereKind): Operation[] => [
  taskRead(w, {
    id: 'getTaskDueDate',
    noTool: 'The spec names no tool for this read: it is covered by get_task (4.3).',
    suffix: '/due-date',
    summary: `Read the due date of ${whereText(w)}`,
    description: 'Returns {dueDateTime}; an empty object when the task has none.',
    output: dueDateOfTask,
    refusals: ['403 FORBIDDEN'],
    run: readDueDate,
  }),
  taskOperation(w, {
    id: 'setTaskDueDate',
    tool: 'set_task_due_date',
    method: 'PUT',
    suffix: '/due-date',
    summary: `Set the due date of ${whereText(w)}`,
    fidelity: READS_FIRST,
    description:
      'Body {dueDateTime}. Returns the task. A date set by hand is no longer moved by the template\'s rules. The activity entry is written in the X-SVC-Timezone zone, else the member profile zone, else UTC.',
    input: () => ({ dueDateTime: instant().describe('The due date: ISO 8601; Z = UTC, an offset is honoured, no offset = UTC') }),
    output: task,
    refusals: ['403 FORBIDDEN'],
    annotations: REPLACE,
    handler: (ctx, input, t) => setDueDate(ctx, t(), input.dueDateTime),
  }),
  taskClear(w, {
    id: 'clearTaskDueDate',
    tool: 'clear_task_due_date',
    suffix: '/due-date',
    summary: `Clear the due date of ${whereText(w)}`,
    fidelity: READS_FIRST,
    description: 'Returns the task.',
    output: task,
    refusals: ['403 FORBIDDEN'],
    run: clearDueDate,
  }),
];
