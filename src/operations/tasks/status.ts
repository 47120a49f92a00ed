// Complete, uncomplete, mark and clear not applicable (spec v3 3, 4.3 "Complete a task").
import type { Operation } from '../define';
import { SET, mixed, REMOVE } from '../define';
import { task } from '../shapes/tasks';
import { clearNotApplicable, completeTask, markNotApplicable, uncompleteTask } from '../../domain/tasks/status';
import { taskOperation, whereText, type WhereKind } from './where';

export const statusOperations = (w: WhereKind): Operation[] => [
  taskOperation(w, {
    id: 'completeTask',
    tool: 'complete_task',
    method: 'POST',
    suffix: '/complete',
    summary: `Complete ${whereText(w)}`,
    fidelity: mixed('2.4, 4.3, 5.8', 'docs/decisions.md', 'who may complete an exclusively assigned task, and the other status writes it blocks (docs/decisions.md)'),
    description:
      'No body. Returns the task (size: task) as it now stands; already complete answers 200 and writes nothing. Refused (409) when the task cannot be completed yet: halted behind a stop task, hidden by a condition, or required fields unanswered; or when it is marked not applicable. A heading is refused (400, field `taskKey`).',
    input: () => ({}),
    output: task,
    refusals: ['403 FORBIDDEN', '409 CONFLICT'],
    annotations: SET,
    unchangedIsRead: true,
    handler: (ctx, _input, t) => completeTask(ctx, t()),
  }),
  taskOperation(w, {
    id: 'uncompleteTask',
    tool: 'uncomplete_task',
    method: 'DELETE',
    suffix: '/complete',
    summary: `Uncomplete ${whereText(w)}`,
    fidelity: mixed('2.4, 4.3, 5.8', 'docs/decisions.md', 'an exclusive assignment also blocks uncomplete (docs/decisions.md); the response body'),
    description: 'The task is no longer complete: it becomes Incomplete. Returns the task; harmless when it is not complete.',
    input: () => ({}),
    output: task,
    refusals: ['403 FORBIDDEN'],
    annotations: REMOVE,
    unchangedIsRead: true,
    handler: (ctx, _input, t) => uncompleteTask(ctx, t()),
  }),
  taskOperation(w, {
    id: 'setTaskNotApplicable',
    tool: 'set_task_not_applicable',
    method: 'POST',
    suffix: '/not-applicable',
    summary: `Mark ${whereText(w)} not applicable`,
    fidelity: mixed('2.4, 4.3, 5.8', 'docs/decisions.md', 'an exclusive assignment also blocks not applicable (docs/decisions.md); the response body'),
    description: 'Stamps a completion time but no task_completed event fires. Returns the task. A complete task is refused (409): uncomplete it first.',
    input: () => ({}),
    output: task,
    refusals: ['403 FORBIDDEN', '409 CONFLICT'],
    annotations: SET,
    unchangedIsRead: true,
    handler: (ctx, _input, t) => markNotApplicable(ctx, t()),
  }),
  taskOperation(w, {
    id: 'clearTaskNotApplicable',
    tool: 'clear_task_not_applicable',
    method: 'DELETE',
    suffix: '/not-applicable',
    summary: `Clear not applicable on ${whereText(w)}`,
    fidelity: mixed('2.4, 4.3, 5.8', 'docs/decisions.md', 'an exclusive assignment also blocks clearing not applicable (docs/decisions.md); the response body'),
    description: 'The task is no longer not applicable: it becomes Incomplete. Returns the task.',
    input: () => ({}),
    output: task,
    refusals: ['403 FORBIDDEN'],
    annotations: REMOVE,
    unchangedIsRead: true,
    handler: (ctx, _input, t) => clearNotApplicable(ctx, t()),
  }),
];
