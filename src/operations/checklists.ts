// Checklists (spec v3 4.7, 3, 2.4, 5.3-5.10). The spec names no MCP tools for these routes
// (4.6 rule 7 points to the tables of 4.3 and 4.4 only), so they get none; REST only.
// Shapes the spec does not show are designed in docs/checklists.md.
import { z } from 'zod';
import { CREATE, READ, REMOVE, SET, mixed, REPLACE } from './define';
import { defineWith } from './define-with';
import { attachedTaskList, checklist, checklistPage, shareStatus } from './shapes/checklists';
import { tagNames } from './shapes/tasks';
import { commaListPattern, cursor, given, notClearable, guid, instant, intId, pageSizeStrict, positiveInt, queryBool, search, sortArg, nonEmptyText, tagList, tagName, trimmedName } from './input-kinds';
import { SORT_FIELDS, listChecklists } from '../domain/checklists/list';
import { SEARCH_OPERATORS, searchChecklists } from '../domain/checklists/search';
import { createChecklist } from '../domain/checklists/create';
import { deleteChecklist, getChecklist, patchChecklist, setArchived } from '../domain/checklists/change';
import { getShare, setShare } from '../domain/checklists/share';
import { addChecklistTags, listChecklistTags, removeChecklistTag } from '../domain/checklists/tags';
import { listAttachedTasks } from '../domain/standalone/attached';
import { lazy } from '../lazy';

const checklistKey = () => guid('a checklist key (GUID)').describe('The checklist key (GUID)');
const checklistOperation = defineWith({
  tag: 'Checklists',
  noTool: 'The spec names MCP tools only for the task and template routes of 4.3 and 4.4 (4.6 rule 7); checklists are reached over MCP through get_task, list_checklist_tasks and the Tasks grid tools.',
  fidelity: mixed('4.7', 'docs/checklists.md', 'request and response bodies and filters beyond templateKey and status (4.7: not shown)'),
  budget: 'standard',
});
const statusFilter = () => z.string({ error: 'must be a comma-separated list of Scheduled, InProgress, Complete' }).meta({ pattern: commaListPattern(['Scheduled', 'InProgress', 'Complete']) }).optional().describe('comma-separated Scheduled, InProgress, Complete; case, spaces, hyphens and underscores ignored');

const listFilters = lazy(() => ({
  templateKey: guid('a template key (GUID)').optional().describe('Only checklists of this template (GUID); a key naming no template of the workspace is 404 TEMPLATE_NOT_FOUND'),
  search: search().describe('case-insensitive substring of the checklist name'),
  tag: tagName().optional().describe('a tag name (case-insensitive): only checklists carrying it'),
  createdBy: intId().optional().describe('member id of the creator'),
  includeArchived: queryBool().describe('include archived checklists; only `true` switches it on'),
  isArchived: queryBool().describe('true: only archived checklists; false: only active ones (overrides includeArchived)'),
  sort: sortArg([...SORT_FIELDS]).describe(`one of ${SORT_FIELDS.join(', ')}, optionally with :asc or :desc; default createdDateTime:desc`),
  after: cursor().describe("The previous page's nextCursor; send every other argument unchanged with it"),
  pageSize: pageSizeStrict().describe('1 to 100, default 50'),
}));

export const checklistOperations = [
  checklistOperation({
    id: 'listChecklists',
    method: 'GET',
    path: '/v3/checklists',
    summary: 'List checklists',
    description: 'The checklists the acting member could see in the app (a workspace key sees all). Archived checklists are left out unless asked for. Send every other argument unchanged with `after`.',
    input: () => ({ ...listFilters(), status: statusFilter() }),
    query: ['templateKey', 'status', 'search', 'tag', 'createdBy', 'includeArchived', 'isArchived', 'sort', 'after', 'pageSize'],
    output: checklistPage,
    refusals: ['404 TEMPLATE_NOT_FOUND'],
    annotations: READ,
    handler: (ctx, input) => listChecklists(ctx, input),
  }),
  checklistOperation({
    id: 'searchChecklists',
    method: 'POST',
    path: '/v3/checklists/search',
    summary: 'Search checklists by field values',
    description: 'Conditions on field answers (by fieldKey or fieldName), all of them (match `all`, default) or any. Accepts the filters of the list route. A read: writes nothing.',
    input: () => ({
      ...listFilters(),
      status: z
        .union([z.string().meta({ pattern: commaListPattern(['Scheduled', 'InProgress', 'Complete']) }), z.array(z.enum(['Scheduled', 'InProgress', 'Complete'], { error: 'must be a status name' })).meta({ minItems: 1 })], { error: 'must be a status name or an array of them' })
        .optional()
        .describe('Scheduled, InProgress, Complete: comma-separated string or array'),
      fields: z
        .array(
          z.object(
            {
              fieldKey: guid('a field key (GUID)').optional().describe('The field key (GUID); or fieldName'),
              fieldName: nonEmptyText(200).optional().describe("The field's label (case-insensitive; every field of that name is tried); or fieldKey"),
              operator: z
                .enum(SEARCH_OPERATORS, { error: `must be one of ${SEARCH_OPERATORS.join(', ')}` })
                .optional()
                .describe(`One of ${SEARCH_OPERATORS.join(', ')}; default is. Comparisons ignore letter case`),
              value: z
                .union([z.string(), z.number(), z.boolean()], { error: 'must be a string, number or boolean' })
                .optional()
                .describe('What to compare with; required by every operator except isEmpty and isNotEmpty, which refuse it'),
            },
            { error: 'must be an object {fieldKey or fieldName, operator?, value?}' },
          )
            .refine((f) => (f.fieldKey === undefined) !== (f.fieldName === undefined), { error: 'must have either fieldKey or fieldName, not both and not neither.' })
            // The same rule, and the domain's operator rule (src/domain/checklists/search.ts), for the document.
            .meta({
              allOf: [
                { oneOf: [{ required: ['fieldKey'] }, { required: ['fieldName'] }] },
                {
                  anyOf: [
                    { required: ['operator'], properties: { operator: { enum: ['isEmpty', 'isNotEmpty'] } }, not: given('value') },
                    { required: ['value'], properties: { operator: { not: { enum: ['isEmpty', 'isNotEmpty'] } } } },
                  ],
                },
              ],
            }),
          { error: 'must be an array of field conditions' },
        )
        .min(1, { error: 'must hold at least one field condition' })
        .max(20, { error: 'must hold at most 20 field conditions' })
        .describe('1 to 20 conditions on field answers, each naming exactly one of fieldKey or fieldName'),
      match: z.enum(['all', 'any'], { error: 'must be all or any' }).optional().describe('all (default): every condition holds; any: at least one'),
    }),
    output: checklistPage,
    refusals: ['404 TEMPLATE_NOT_FOUND'],
    annotations: READ,
    handler: (ctx, input) => searchChecklists(ctx, input),
  }),
  checklistOperation({
    id: 'createChecklist',
    method: 'POST',
    path: '/v3/checklists',
    summary: 'Start a checklist from a template',
    description:
      'Needs Checklist.Creator and permission to run the template (a workspace key needs neither). `parameters` pre-fill fields, named by the template\'s parameter names, field keys or field names. Refused (409) from an archived template. Send an Idempotency-Key to make a retry safe.',
    input: () => ({
      templateKey: guid('a template key (GUID)').describe('The template to run (GUID)'),
      name: trimmedName().describe('Checklist name, 1 to 255 characters (trimmed)'),
      version: positiveInt('a template version').optional().describe('The template version to run; default the latest'),
      dueDateTime: instant().optional().describe("The checklist's due date: ISO 8601; Z = UTC, an offset is honoured, no offset = UTC"),
      parameters: z
        .record(z.string(), z.unknown(), { error: 'must be an object of field values' })
        .optional()
        .describe("Field values to pre-fill, named by the template's parameter names, field keys or field names; each validated like answering the field; null leaves it empty"),
    }),
    output: checklist,
    refusals: ['403 FORBIDDEN', '404 TEMPLATE_NOT_FOUND', '409 CONFLICT'],
    annotations: CREATE,
    status: 201,
    handler: (ctx, input) => createChecklist(ctx, input),
  }),
  checklistOperation({
    id: 'getChecklist',
    method: 'GET',
    path: '/v3/checklists/:checklistKey',
    summary: 'Get a checklist',
    description: 'The checklist resource. Refused (403) when the acting member may not open the checklist.',
    input: () => ({ checklistKey: checklistKey() }),
    output: checklist,
    refusals: ['403 FORBIDDEN', '404 CHECKLIST_NOT_FOUND'],
    annotations: READ,
    handler: (ctx, input) => getChecklist(ctx, input.checklistKey),
  }),
  checklistOperation({
    id: 'updateChecklist',
    method: 'PATCH',
    path: '/v3/checklists/:checklistKey',
    summary: 'Rename a checklist or change its due date',
    description: 'A value sets, null clears (dueDateTime only), an omitted property is unchanged.',
    input: () => ({
      checklistKey: checklistKey(),
      name: notClearable(trimmedName()).optional().describe('New name, 1 to 255 characters; cannot be cleared'),
      dueDateTime: instant().nullable().optional().describe('New due date (ISO 8601); null clears'),
    }),
    output: checklist,
    refusals: ['403 FORBIDDEN', '404 CHECKLIST_NOT_FOUND'],
    annotations: REPLACE,
    handler: (ctx, input) => patchChecklist(ctx, input),
  }),
  checklistOperation({
    id: 'deleteChecklist',
    method: 'DELETE',
    path: '/v3/checklists/:checklistKey',
    summary: 'Delete a checklist permanently',
    description: 'Administrators, and the member who created the checklist. Attached standalone tasks are kept, detached.',
    input: () => ({ checklistKey: checklistKey() }),
    refusals: ['403 FORBIDDEN', '404 CHECKLIST_NOT_FOUND'],
    annotations: REMOVE,
    status: 204,
    handler: (ctx, input) => deleteChecklist(ctx, input.checklistKey),
  }),
  checklistOperation({
    id: 'archiveChecklist',
    method: 'POST',
    path: '/v3/checklists/:checklistKey/archive',
    summary: 'Archive a checklist',
    description: 'Administrators only; a workspace key is refused (it acts through the anonymous member).',
    input: () => ({ checklistKey: checklistKey() }),
    output: checklist,
    refusals: ['403 FORBIDDEN', '404 CHECKLIST_NOT_FOUND'],
    annotations: SET,
    handler: (ctx, input) => setArchived(ctx, input.checklistKey, true),
  }),
  checklistOperation({
    id: 'unarchiveChecklist',
    method: 'DELETE',
    path: '/v3/checklists/:checklistKey/archive',
    summary: 'Unarchive a checklist',
    description: 'Administrators only; a workspace key is refused.',
    input: () => ({ checklistKey: checklistKey() }),
    output: checklist,
    refusals: ['403 FORBIDDEN', '404 CHECKLIST_NOT_FOUND'],
    annotations: REMOVE,
    handler: (ctx, input) => setArchived(ctx, input.checklistKey, false),
  }),
  checklistOperation({
    id: 'getChecklistShare',
    method: 'GET',
    path: '/v3/checklists/:checklistKey/share',
    summary: 'Read whether a checklist is shared by link',
    description: 'Answers {isShared, shareUrl} (shareUrl only while shared). Anyone who may open the checklist.',
    input: () => ({ checklistKey: checklistKey() }),
    output: shareStatus,
    refusals: ['403 FORBIDDEN', '404 CHECKLIST_NOT_FOUND'],
    annotations: READ,
    handler: (ctx, input) => getShare(ctx, input.checklistKey),
  }),
  checklistOperation({
    id: 'shareChecklist',
    method: 'PUT',
    path: '/v3/checklists/:checklistKey/share',
    summary: 'Share a checklist by link',
    description: 'No body. Turns sharing on (keeping an existing link) and answers {isShared, shareUrl}. Anyone holding the link can view the checklist.',
    input: () => ({ checklistKey: checklistKey() }),
    output: shareStatus,
    refusals: ['403 FORBIDDEN', '404 CHECKLIST_NOT_FOUND'],
    annotations: REPLACE,
    handler: (ctx, input) => setShare(ctx, input.checklistKey, true),
  }),
  checklistOperation({
    id: 'unshareChecklist',
    method: 'DELETE',
    path: '/v3/checklists/:checklistKey/share',
    summary: 'Stop sharing a checklist by link',
    description: 'The link stops working; sharing again makes a new one. Answers {isShared: false}.',
    input: () => ({ checklistKey: checklistKey() }),
    output: shareStatus,
    refusals: ['403 FORBIDDEN', '404 CHECKLIST_NOT_FOUND'],
    annotations: REMOVE,
    handler: (ctx, input) => setShare(ctx, input.checklistKey, false),
  }),
  checklistOperation({
    id: 'listChecklistTags',
    method: 'GET',
    path: '/v3/checklists/:checklistKey/tags',
    summary: "List a checklist's tags",
    description: "Answers {tags}: the checklist's own tags, in name order.",
    input: () => ({ checklistKey: checklistKey() }),
    output: tagNames,
    refusals: ['403 FORBIDDEN', '404 CHECKLIST_NOT_FOUND'],
    annotations: READ,
    handler: (ctx, input) => listChecklistTags(ctx, input.checklistKey),
  }),
  checklistOperation({
    id: 'addChecklistTags',
    method: 'POST',
    path: '/v3/checklists/:checklistKey/tags',
    summary: 'Tag a checklist',
    description: 'Body {"tags": ["name", ...]}. A tag is created on first use; a name differing only in letter case uses the existing tag. Answers the checklist\'s tags.',
    input: () => ({ checklistKey: checklistKey(), tags: tagList().describe('Tag names to add, 1 to 50, each 1 to 100 characters') }),
    output: tagNames,
    refusals: ['403 FORBIDDEN', '404 CHECKLIST_NOT_FOUND'],
    annotations: SET,
    handler: (ctx, input) => addChecklistTags(ctx, input.checklistKey, input.tags),
  }),
  checklistOperation({
    id: 'removeChecklistTag',
    method: 'DELETE',
    path: '/v3/checklists/:checklistKey/tags',
    summary: 'Untag a checklist',
    description: 'Query `name`. A tag taken off its last carrier is removed. Answers the checklist\'s tags.',
    input: () => ({ checklistKey: checklistKey(), name: tagName().describe('The tag to take off (case-insensitive)') }),
    query: ['name'],
    output: tagNames,
    refusals: ['403 FORBIDDEN', '404 CHECKLIST_NOT_FOUND'],
    annotations: REMOVE,
    handler: (ctx, input) => removeChecklistTag(ctx, input.checklistKey, input.name),
  }),
  checklistOperation({
    id: 'listAttachedTasks',
    method: 'GET',
    path: '/v3/checklists/:checklistKey/attached-tasks',
    summary: 'List the standalone tasks attached to a checklist',
    description: 'Answers {tasks: [task summary]}, oldest first, unpaged. These tasks are read and written at /v3/tasks/{taskKey}.',
    input: () => ({ checklistKey: checklistKey() }),
    output: attachedTaskList,
    refusals: ['403 FORBIDDEN', '404 CHECKLIST_NOT_FOUND'],
    annotations: READ,
    handler: (ctx, input) => listAttachedTasks(ctx, input.checklistKey),
  }),
];
