// Standalone tasks at /v3/tasks/{taskKey} (spec v3 2.1, 4.3 intro, 4.7, 5.5, 5.9, 5.10): raise,
// read, change, delete, attach and detach. The suffix routes shared with checklist tasks
// (/complete, /assignees, /tags, ...) are declared by the task area (src/operations/tasks/).
// The spec names no MCP tool for these routes, so they get none (docs/checklists.md).
import { z } from 'zod';
import { CREATE, READ, REMOVE, mixed, REPLACE } from './define';
import { defineWith } from './define-with';
import { guid, instant, notClearable, tagList, text, trimmedName } from './input-kinds';
import { standaloneDetail } from './shapes/tasks';
import { namingEntry } from './tasks/naming';
import {
  attachStandaloneTask,
  createStandaloneTask,
  deleteStandaloneTask,
  detachStandaloneTask,
  getStandaloneTask,
  patchStandaloneTask,
} from '../domain/standalone/tasks';

const taskKey = () => guid('a task key (GUID)').describe('The standalone task key (GUID)');
const standaloneOperation = defineWith({
  tag: 'Standalone tasks',
  noTool: 'The spec names MCP tools only for checklist task and template routes (4.3, 4.4, 4.6 rule 7); standalone tasks are REST only.',
  fidelity: mixed('4.3, 4.7, 5.5', 'docs/tasks.md', 'request and response bodies of standalone tasks (4.7: not shown)'),
  budget: 'standard',
});
const description = () => text(10_000);
export const standaloneOperations = [
  standaloneOperation({
    id: 'createStandaloneTask',
    method: 'POST',
    path: '/v3/tasks',
    summary: 'Raise a standalone task',
    description:
      'Needs Task.Creator (a workspace key needs none). `checklistKey` attaches it at once (Task.Attacher and run permission on the checklist\'s template). A workspace key may not send `assignees` or `dueDateTime` (assigning and dating are done by a person, 5.8).',
    input: () => ({
      name: trimmedName().describe('Task name, 1 to 255 characters (trimmed)'),
      description: description().optional().describe('Task description, at most 10,000 characters'),
      dueDateTime: instant().optional().describe('Due date: ISO 8601; Z = UTC, an offset is honoured, no offset = UTC. Not for a workspace key'),
      assignees: z
        .array(namingEntry(), { error: 'must be an array of {type, id} or {name}' })
        .max(100, { error: 'must name at most 100 assignees' })
        .optional()
        .describe('Assignees: {type, id} or {name} each (2.4). Not for a workspace key'),
      isAssignedExclusively: z.boolean({ error: 'must be true or false' }).optional().describe('Only assignees (and Administrators) may complete, reassign or re-date'),
      tags: tagList().optional().describe('Tag names, 1 to 50, each 1 to 100 characters'),
      checklistKey: guid('a checklist key (GUID)').optional().describe('A checklist to attach the task to at once (GUID)'),
    }),
    output: standaloneDetail,
    refusals: ['403 FORBIDDEN', '404 CHECKLIST_NOT_FOUND', '409 CONFLICT'],
    annotations: CREATE,
    status: 201,
    handler: (ctx, input) => createStandaloneTask(ctx, input),
  }),
  standaloneOperation({
    id: 'getStandaloneTask',
    method: 'GET',
    path: '/v3/tasks/:taskKey',
    summary: 'Get a standalone task',
    description: 'Task detail; `checklist` is present while the task is attached to one. A checklist task key is 404 TASK_NOT_FOUND here.',
    input: () => ({ taskKey: taskKey() }),
    output: standaloneDetail,
    refusals: ['403 FORBIDDEN', '404 TASK_NOT_FOUND'],
    annotations: READ,
    handler: (ctx, input) => getStandaloneTask(ctx, input.taskKey),
  }),
  standaloneOperation({
    id: 'updateStandaloneTask',
    method: 'PATCH',
    path: '/v3/tasks/:taskKey',
    summary: 'Change a standalone task',
    description: 'name, description, dueDateTime: a value sets, null clears (description, dueDateTime), omitted is unchanged. Needs Task.Creator; a workspace key changes only the tasks it raised.',
    input: () => ({
      taskKey: taskKey(),
      name: notClearable(trimmedName()).optional().describe('New name, 1 to 255 characters; cannot be cleared'),
      description: description().nullable().optional().describe('New description; null clears'),
      dueDateTime: instant().nullable().optional().describe('New due date (ISO 8601); null clears. Not for a workspace key'),
    }),
    output: standaloneDetail,
    refusals: ['403 FORBIDDEN', '404 TASK_NOT_FOUND'],
    annotations: REPLACE,
    handler: (ctx, input) => patchStandaloneTask(ctx, input),
  }),
  standaloneOperation({
    id: 'deleteStandaloneTask',
    method: 'DELETE',
    path: '/v3/tasks/:taskKey',
    summary: 'Delete a standalone task permanently',
    description: 'Needs Task.Creator; a workspace key deletes only the tasks it raised.',
    input: () => ({ taskKey: taskKey() }),
    refusals: ['403 FORBIDDEN', '404 TASK_NOT_FOUND'],
    annotations: REMOVE,
    status: 204,
    handler: (ctx, input) => deleteStandaloneTask(ctx, input.taskKey),
  }),
  standaloneOperation({
    id: 'attachStandaloneTask',
    method: 'PUT',
    path: '/v3/tasks/:taskKey/attachment',
    summary: 'Attach a standalone task to a checklist',
    description:
      'Body {"checklistKey"}. Needs Task.Attacher and run permission on the checklist\'s template; refused (409) when the template does not allow attached tasks, for every key. Attaching to another checklist moves the task. Answers the task detail.',
    input: () => ({ taskKey: taskKey(), checklistKey: guid('a checklist key (GUID)').describe('The checklist to attach the task to (GUID)') }),
    output: standaloneDetail,
    refusals: ['403 FORBIDDEN', '404 TASK_NOT_FOUND', '404 CHECKLIST_NOT_FOUND', '409 CONFLICT'],
    annotations: REPLACE,
    handler: (ctx, input) => attachStandaloneTask(ctx, input.taskKey, input.checklistKey),
  }),
  standaloneOperation({
    id: 'detachStandaloneTask',
    method: 'DELETE',
    path: '/v3/tasks/:taskKey/attachment',
    summary: 'Detach a standalone task from its checklist',
    description: 'Needs Task.Attacher. Detaching a task attached to nothing is harmless. Answers the task detail.',
    input: () => ({ taskKey: taskKey() }),
    output: standaloneDetail,
    refusals: ['403 FORBIDDEN', '404 TASK_NOT_FOUND'],
    annotations: REMOVE,
    handler: (ctx, input) => detachStandaloneTask(ctx, input.taskKey),
  }),
];
