// Listing a checklist's tasks and reading one (spec v3 4.3 "List checklist tasks", "Get a task").
import { z } from 'zod';
import { READ, defineOperation, type Operation, documented } from '../define';
import { taskDetail, taskList } from '../shapes/tasks';
import { findChecklistTask } from '../../domain/tasks/target';
import { listChecklistTasks, parseStatusFilter } from '../../domain/tasks/list';
import { stateOf, taskDetail as detailOf } from '../../domain/tasks/views';
import { assertTaskReadable } from '../../domain/tasks/guard';
import { checklistKeyInput, taskKeyInput } from './where';

export const readOperations: Operation[] = [
  defineOperation({
    id: 'listChecklistTasks',
    fidelity: documented('4.3'),
    tool: 'list_checklist_tasks',
    method: 'GET',
    path: '/v3/checklists/:checklistKey/tasks',
    tag: 'Tasks',
    summary: 'List checklist tasks',
    description: 'Returns {tasks: [task summary]} in checklist order, unpaged, all at once. Omitting status returns every task including headings; any status filter leaves headings out.',
    input: () => ({
      checklistKey: checklistKeyInput(),
      status: z
        .string({ error: 'must be Incomplete, Complete or NotApplicable, comma-separated' })
        // The canonical spelling; the parser (src/domain/tasks/list.ts) also ignores case, spaces, hyphens and underscores.
        .meta({ pattern: '^(Incomplete|Complete|NotApplicable)(,(Incomplete|Complete|NotApplicable))*$' })
        .optional()
        .describe(
          'Comma-separated Incomplete, Complete, NotApplicable; case, spaces, hyphens and underscores ignored. Omitted = every task including headings; any status filter leaves headings out. Any other value, or an empty status=, is refused.',
        ),
    }),
    query: ['status'],
    output: taskList,
    refusals: ['403 FORBIDDEN', '404 CHECKLIST_NOT_FOUND'],
    budget: 'standard',
    annotations: READ,
    handler: (ctx, input) => listChecklistTasks(ctx, input.checklistKey, parseStatusFilter(input.status)),
  }),
  defineOperation({
    id: 'getTask',
    fidelity: documented('4.3'),
    tool: 'get_task',
    method: 'GET',
    path: '/v3/checklists/:checklistKey/tasks/:taskKey',
    tag: 'Tasks',
    summary: 'Get task detail',
    description: 'Returns task detail: the task with assignees, fields, comments, its checklist and its own tags.',
    input: () => ({ checklistKey: checklistKeyInput(), taskKey: taskKeyInput() }),
    output: taskDetail,
    refusals: ['403 FORBIDDEN', '404 CHECKLIST_NOT_FOUND', '404 TASK_NOT_FOUND'],
    budget: 'standard',
    annotations: READ,
    handler: (ctx, input) => {
      const t = findChecklistTask(ctx, input.checklistKey, input.taskKey);
      assertTaskReadable(ctx, t);
      return detailOf(ctx, t, stateOf(ctx, t));
    },
  }),
];
