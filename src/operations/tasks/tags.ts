// A task's own tags (spec v3 2.4 detail `tags`, 4.1 rule 5; EMULATOR.md: POST {tags}, DELETE ?name=).
import type { Operation } from '../define';
import { SET, REMOVE } from '../define';
import { tagList, tagName } from '../input-kinds';
import { tagNames } from '../shapes/tasks';
import { addTaskTags, listTaskTags, removeTaskTag } from '../../domain/tasks/tags';
import { taskOperation, taskRead, whereText, type WhereKind } from './where';

export const tagOperations = (w: WhereKind): Operation[] => [
  taskRead(w, {
    id: 'listTaskTags',
    noTool: 'The spec names no tool for this read: it is covered by get_task (4.3).',
    suffix: '/tags',
    summary: `List the tags of ${whereText(w)}`,
    description: "Returns {tags}: the task's own tags by name, in name order; checklist tags excluded.",
    output: tagNames,
    refusals: ['403 FORBIDDEN'],
    run: listTaskTags,
  }),
  taskOperation(w, {
    id: 'addTaskTags',
    tool: 'add_task_tags',
    method: 'POST',
    suffix: '/tags',
    summary: `Tag ${whereText(w)}`,
    description: 'Body {tags: [name, ...]}; tags are created on first application, and a name differing only in letter case uses the existing tag. Returns {tags}.',
    input: () => ({
      tags: tagList().describe('Tag names to add, 1 to 50, each 1 to 100 characters'),
    }),
    output: tagNames,
    refusals: [],
    annotations: SET,
    handler: (ctx, input, t) => addTaskTags(ctx, t(), input.tags),
  }),
  taskOperation(w, {
    id: 'removeTaskTag',
    tool: 'remove_task_tag',
    method: 'DELETE',
    suffix: '/tags',
    summary: `Untag ${whereText(w)}`,
    description: 'Query name=<tag>. A tag is removed with its last carrier. Harmless when the task does not carry it. Returns {tags}.',
    input: () => ({
      name: tagName().describe('The tag to take off (case-insensitive)'),
    }),
    query: ['name'],
    output: tagNames,
    refusals: [],
    annotations: REMOVE,
    handler: (ctx, input, t) => removeTaskTag(ctx, t(), input.name),
  }),
];
