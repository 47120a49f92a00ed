// Assignees (spec v3 2.4; EMULATOR.md: PUT {assignees, isAssignedExclusively?} replaces all,
// DELETE clears, both answer the task).
import { z } from 'zod';
import type { Operation } from '../define';
import { mixed, REPLACE } from '../define';
import { assigneesOfTask, task } from '../shapes/tasks';
import { clearAssignees, readAssignees, setAssignees } from '../../domain/tasks/assignees';
import { resolveNamingList } from '../../domain/tasks/naming';
import { namingList } from './naming';
import { taskClear, taskOperation, taskRead, whereText, type WhereKind } from './where';

const COVERED = 'The spec names no tool for this read: it is covered by get_task (4.3).';

export const assigneeOperations = (w: WhereKind): Operation[] => [
  taskRead(w, {
    id: 'getTaskAssignees',
    noTool: COVERED,
    suffix: '/assignees',
    summary: `Read the assignees of ${whereText(w)}`,
    description: 'Returns {assignees (groups first, then by name), isAssignedExclusively}.',
    output: assigneesOfTask,
    refusals: ['403 FORBIDDEN'],
    run: readAssignees,
  }),
  taskOperation(w, {
    id: 'setTaskAssignees',
    tool: 'set_task_assignees',
    method: 'PUT',
    suffix: '/assignees',
    summary: `Assign ${whereText(w)}`,
    fidelity: mixed('4.3, 5.4, 5.8', 'docs/decisions.md', 'the one assignment rule on every path that assigns (docs/decisions.md); the request and response bodies'),
    description:
      'Replaces every assignee. Each entry is {type, id} (TeamMember or Group) or {name} (full name, email or group name; ignored when id is given). Only active Administrators, Members and Guests and all groups match; a name matching more than one candidate is refused (400) listing the candidates by type and id. Returns the task.',
    input: () => ({
      assignees: namingList('the assignees').describe('The new assignees, replacing all: {type, id} or {name} each'),
      isAssignedExclusively: z
        .boolean({ error: 'must be true or false' })
        .optional()
        .describe('Only assignees (and Administrators) may complete, reassign or re-date; omitted keeps the flag'),
    }),
    output: task,
    refusals: ['403 FORBIDDEN'],
    annotations: REPLACE,
    handler: (ctx, input, t) => {
      // Names are resolved before the task is looked up (400 before 404).
      const refs = resolveNamingList(ctx, input.assignees, 'assignees');
      return setAssignees(ctx, t(), refs, input.isAssignedExclusively);
    },
  }),
  taskClear(w, {
    id: 'clearTaskAssignees',
    tool: 'clear_task_assignees',
    suffix: '/assignees',
    summary: `Unassign everyone from ${whereText(w)}`,
    fidelity: mixed('4.3, 5.4, 5.8', 'docs/decisions.md', 'the one assignment rule on every path that assigns (docs/decisions.md); the response body'),
    description: 'Returns the task. The isAssignedExclusively flag is kept.',
    output: task,
    refusals: ['403 FORBIDDEN'],
    run: clearAssignees,
  }),
];
