// Standalone tasks at /v3/tasks/{taskKey} (spec v3 2.1, 4.3 intro, 4.7, 5.5, 5.9, 5.10): raise,
// read, change, delete, attach and detach. The suffix routes shared with checklist tasks
// (/complete, /assignees, /tags, ...) are declared by the task area (src/operations/tasks.ts).
// The spec names no MCP tool for these routes, so they get none (docs/checklists.md).
import { z } from 'zod';
import { CREATE, READ, REMOVE, SET, defineOperation } from './define';
import { guid } from './schemas';
import { tagList } from './checklists';
import { instantInput } from '../domain/checklists/instant';
import {
  attachStandaloneTask,
  createStandaloneTask,
  deleteStandaloneTask,
  detachStandaloneTask,
  getStandaloneTask,
  patchStandaloneTask,
} from '../domain/standalone/tasks';

const taskKey = () => guid('a task key (GUID)');
const taskName = () =>
  z
    .string({ error: 'must be a string' })
    .refine((s) => s.trim().length > 0, { error: 'must not be empty' })
    .refine((s) => s.trim().length <= 255, { error: 'must be at most 255 characters' });
const description = () => z.string({ error: 'must be a string' }).max(10_000, { error: 'must be at most 10,000 characters' });
const namingEntry = () =>
  z.object(
    {
      type: z.string({ error: 'must be TeamMember or Group' }).optional(),
      id: z.number({ error: 'must be an integer' }).int({ error: 'must be an integer' }).optional(),
      name: z.string({ error: 'must be a string' }).optional(),
    },
    { error: 'must be {type, id} or {name}' },
  );

export const standaloneOperations = [
  defineOperation({
    id: 'createStandaloneTask',
    method: 'POST',
    path: '/v3/tasks',
    summary: 'Raise a standalone task',
    description:
      'Needs Task.Creator (a workspace key needs none). `checklistKey` attaches it at once (Task.Attacher and run permission on the checklist\'s template). A workspace key may not send `assignees` or `dueDateTime` (assigning and dating are done by a person, 5.8).',
    input: {
      name: taskName(),
      description: description().optional(),
      dueDateTime: instantInput().optional(),
      assignees: z.array(namingEntry(), { error: 'must be an array of {type, id} or {name}' }).max(100, { error: 'must name at most 100 assignees' }).optional(),
      isAssignedExclusively: z.boolean({ error: 'must be true or false' }).optional(),
      tags: tagList().optional(),
      checklistKey: guid('a checklist key (GUID)').optional(),
    },
    budget: 'standard',
    annotations: CREATE,
    status: 201,
    handler: (ctx, input) => createStandaloneTask(ctx, input),
  }),
  defineOperation({
    id: 'getStandaloneTask',
    method: 'GET',
    path: '/v3/tasks/:taskKey',
    summary: 'Get a standalone task',
    description: 'Task detail; `checklist` is present while the task is attached to one. A checklist task key is 404 TASK_NOT_FOUND here.',
    input: { taskKey: taskKey() },
    budget: 'standard',
    annotations: READ,
    handler: (ctx, input) => getStandaloneTask(ctx, input.taskKey),
  }),
  defineOperation({
    id: 'updateStandaloneTask',
    method: 'PATCH',
    path: '/v3/tasks/:taskKey',
    summary: 'Change a standalone task',
    description: 'name, description, dueDateTime: a value sets, null clears (description, dueDateTime), omitted is unchanged. Needs Task.Creator; a workspace key changes only the tasks it raised.',
    input: {
      taskKey: taskKey(),
      name: taskName().nullable().optional(),
      description: description().nullable().optional(),
      dueDateTime: instantInput().nullable().optional(),
    },
    budget: 'standard',
    annotations: SET,
    handler: (ctx, input) => patchStandaloneTask(ctx, input),
  }),
  defineOperation({
    id: 'deleteStandaloneTask',
    method: 'DELETE',
    path: '/v3/tasks/:taskKey',
    summary: 'Delete a standalone task permanently',
    description: 'Needs Task.Creator; a workspace key deletes only the tasks it raised.',
    input: { taskKey: taskKey() },
    budget: 'standard',
    annotations: REMOVE,
    status: 204,
    handler: (ctx, input) => deleteStandaloneTask(ctx, input.taskKey),
  }),
  defineOperation({
    id: 'attachStandaloneTask',
    method: 'PUT',
    path: '/v3/tasks/:taskKey/attachment',
    summary: 'Attach a standalone task to a checklist',
    description:
      'Body {"checklistKey"}. Needs Task.Attacher and run permission on the checklist\'s template; refused (409) when the template does not allow attached tasks, for every key. Attaching to another checklist moves the task. Answers the task detail.',
    input: { taskKey: taskKey(), checklistKey: guid('a checklist key (GUID)') },
    budget: 'standard',
    annotations: SET,
    handler: (ctx, input) => attachStandaloneTask(ctx, input.taskKey, input.checklistKey),
  }),
  defineOperation({
    id: 'detachStandaloneTask',
    method: 'DELETE',
    path: '/v3/tasks/:taskKey/attachment',
    summary: 'Detach a standalone task from its checklist',
    description: 'Needs Task.Attacher. Detaching a task attached to nothing is harmless. Answers the task detail.',
    input: { taskKey: taskKey() },
    budget: 'standard',
    annotations: SET,
    handler: (ctx, input) => detachStandaloneTask(ctx, input.taskKey),
  }),
];
