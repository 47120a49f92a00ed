// Checklists (spec v3 4.7, 3, 2.4, 5.3-5.10). The spec names no MCP tools for these routes
// (4.6 rule 7 points to the tables of 4.3 and 4.4 only), so they get none; REST only.
// Shapes the spec does not show are designed in docs/checklists.md.
import { z } from 'zod';
import { CREATE, READ, REMOVE, SET, defineOperation } from './define';
import { cursor, guid, memberIdParam, pageSizeStrict, positiveInt, queryBool, search, sortArg } from './schemas';
import { instantInput } from '../domain/checklists/instant';
import { SORT_FIELDS, listChecklists } from '../domain/checklists/list';
import { SEARCH_OPERATORS, searchChecklists } from '../domain/checklists/search';
import { createChecklist } from '../domain/checklists/create';
import { deleteChecklist, getChecklist, patchChecklist, setArchived } from '../domain/checklists/change';
import { getShare, setShare } from '../domain/checklists/share';
import { addChecklistTags, listChecklistTags, removeChecklistTag } from '../domain/checklists/tags';
import { listAttachedTasks } from '../domain/standalone/attached';

const checklistKey = () => guid('a checklist key (GUID)');
const checklistName = () =>
  z
    .string({ error: 'must be a string' })
    .refine((s) => s.trim().length > 0, { error: 'must not be empty' })
    .refine((s) => s.trim().length <= 255, { error: 'must be at most 255 characters' });
const statusFilter = () => z.string({ error: 'must be a comma-separated list of Scheduled, InProgress, Complete' }).optional().describe('comma-separated Scheduled, InProgress, Complete; case, spaces, hyphens and underscores ignored');
export const tagName = () =>
  z
    .string({ error: 'must be a string' })
    .refine((s) => s.trim().length > 0, { error: 'must not be empty' })
    .refine((s) => s.trim().length <= 100, { error: 'must be at most 100 characters' });
export const tagList = () => z.array(tagName(), { error: 'must be an array of tag names' }).min(1, { error: 'must name at least one tag' }).max(50, { error: 'must name at most 50 tags' });

const listFilters = {
  templateKey: guid('a template key (GUID)').optional(),
  search: search().describe('case-insensitive substring of the checklist name'),
  tag: tagName().optional().describe('a tag name (case-insensitive): only checklists carrying it'),
  createdBy: memberIdParam().optional().describe('member id of the creator'),
  includeArchived: queryBool().describe('include archived checklists; only `true` switches it on'),
  isArchived: queryBool().describe('true: only archived checklists; false: only active ones (overrides includeArchived)'),
  sort: sortArg([...SORT_FIELDS]).describe(`one of ${SORT_FIELDS.join(', ')}, optionally with :asc or :desc; default createdDateTime:desc`),
  after: cursor(),
  pageSize: pageSizeStrict(),
};

export const checklistOperations = [
  defineOperation({
    id: 'listChecklists',
    method: 'GET',
    path: '/v3/checklists',
    summary: 'List checklists',
    description: 'The checklists the acting member could see in the app (a workspace key sees all). Archived checklists are left out unless asked for. Send every other argument unchanged with `after`.',
    input: { ...listFilters, status: statusFilter() },
    query: ['templateKey', 'status', 'search', 'tag', 'createdBy', 'includeArchived', 'isArchived', 'sort', 'after', 'pageSize'],
    budget: 'standard',
    annotations: READ,
    handler: (ctx, input) => listChecklists(ctx, input),
  }),
  defineOperation({
    id: 'searchChecklists',
    method: 'POST',
    path: '/v3/checklists/search',
    summary: 'Search checklists by field values',
    description: 'Conditions on field answers (by fieldKey or fieldName), all of them (match `all`, default) or any. Accepts the filters of the list route. A read: writes nothing.',
    input: {
      ...listFilters,
      status: z
        .union([z.string(), z.array(z.string({ error: 'must be a status name' }))], { error: 'must be a status name or an array of them' })
        .optional()
        .describe('Scheduled, InProgress, Complete: comma-separated string or array'),
      fields: z
        .array(
          z.object(
            {
              fieldKey: guid('a field key (GUID)').optional(),
              fieldName: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(200, { error: 'must be at most 200 characters' }).optional(),
              operator: z.enum(SEARCH_OPERATORS, { error: `must be one of ${SEARCH_OPERATORS.join(', ')}` }).optional(),
              value: z.union([z.string(), z.number(), z.boolean()], { error: 'must be a string, number or boolean' }).optional(),
            },
            { error: 'must be an object {fieldKey or fieldName, operator?, value?}' },
          ),
          { error: 'must be an array of field conditions' },
        )
        .min(1, { error: 'must hold at least one field condition' })
        .max(20, { error: 'must hold at most 20 field conditions' }),
      match: z.enum(['all', 'any'], { error: 'must be all or any' }).optional(),
    },
    budget: 'standard',
    annotations: READ,
    handler: (ctx, input) => searchChecklists(ctx, input),
  }),
  defineOperation({
    id: 'createChecklist',
    method: 'POST',
    path: '/v3/checklists',
    summary: 'Start a checklist from a template',
    description:
      'Needs Checklist.Creator and permission to run the template (a workspace key needs neither). `parameters` pre-fill fields, named by the template\'s parameter names, field keys or field names. Refused (409) from an archived template. Send an Idempotency-Key to make a retry safe.',
    input: {
      templateKey: guid('a template key (GUID)'),
      name: checklistName(),
      version: positiveInt('a template version').optional(),
      dueDateTime: instantInput().optional(),
      parameters: z.record(z.string(), z.unknown(), { error: 'must be an object of field values' }).optional(),
    },
    budget: 'standard',
    annotations: CREATE,
    status: 201,
    handler: (ctx, input) => createChecklist(ctx, input),
  }),
  defineOperation({
    id: 'getChecklist',
    method: 'GET',
    path: '/v3/checklists/:checklistKey',
    summary: 'Get a checklist',
    input: { checklistKey: checklistKey() },
    budget: 'standard',
    annotations: READ,
    handler: (ctx, input) => getChecklist(ctx, input.checklistKey),
  }),
  defineOperation({
    id: 'updateChecklist',
    method: 'PATCH',
    path: '/v3/checklists/:checklistKey',
    summary: 'Rename a checklist or change its due date',
    description: 'A value sets, null clears (dueDateTime only), an omitted property is unchanged.',
    input: {
      checklistKey: checklistKey(),
      name: checklistName().nullable().optional(),
      dueDateTime: instantInput().nullable().optional(),
    },
    budget: 'standard',
    annotations: SET,
    handler: (ctx, input) => patchChecklist(ctx, input),
  }),
  defineOperation({
    id: 'deleteChecklist',
    method: 'DELETE',
    path: '/v3/checklists/:checklistKey',
    summary: 'Delete a checklist permanently',
    description: 'Administrators, and the member who created the checklist. Attached standalone tasks are kept, detached.',
    input: { checklistKey: checklistKey() },
    budget: 'standard',
    annotations: REMOVE,
    status: 204,
    handler: (ctx, input) => deleteChecklist(ctx, input.checklistKey),
  }),
  defineOperation({
    id: 'archiveChecklist',
    method: 'POST',
    path: '/v3/checklists/:checklistKey/archive',
    summary: 'Archive a checklist',
    description: 'Administrators only; a workspace key is refused (it acts through the anonymous member).',
    input: { checklistKey: checklistKey() },
    budget: 'standard',
    annotations: SET,
    handler: (ctx, input) => setArchived(ctx, input.checklistKey, true),
  }),
  defineOperation({
    id: 'unarchiveChecklist',
    method: 'DELETE',
    path: '/v3/checklists/:checklistKey/archive',
    summary: 'Unarchive a checklist',
    description: 'Administrators only; a workspace key is refused.',
    input: { checklistKey: checklistKey() },
    budget: 'standard',
    annotations: SET,
    handler: (ctx, input) => setArchived(ctx, input.checklistKey, false),
  }),
  defineOperation({
    id: 'getChecklistShare',
    method: 'GET',
    path: '/v3/checklists/:checklistKey/share',
    summary: 'Read whether a checklist is shared by link',
    input: { checklistKey: checklistKey() },
    budget: 'standard',
    annotations: READ,
    handler: (ctx, input) => getShare(ctx, input.checklistKey),
  }),
  defineOperation({
    id: 'shareChecklist',
    method: 'PUT',
    path: '/v3/checklists/:checklistKey/share',
    summary: 'Share a checklist by link',
    description: 'No body. Turns sharing on (keeping an existing link) and answers {isShared, shareUrl}. Anyone holding the link can view the checklist.',
    input: { checklistKey: checklistKey() },
    budget: 'standard',
    annotations: SET,
    handler: (ctx, input) => setShare(ctx, input.checklistKey, true),
  }),
  defineOperation({
    id: 'unshareChecklist',
    method: 'DELETE',
    path: '/v3/checklists/:checklistKey/share',
    summary: 'Stop sharing a checklist by link',
    description: 'The link stops working; sharing again makes a new one. Answers {isShared: false}.',
    input: { checklistKey: checklistKey() },
    budget: 'standard',
    annotations: SET,
    handler: (ctx, input) => setShare(ctx, input.checklistKey, false),
  }),
  defineOperation({
    id: 'listChecklistTags',
    method: 'GET',
    path: '/v3/checklists/:checklistKey/tags',
    summary: "List a checklist's tags",
    input: { checklistKey: checklistKey() },
    budget: 'standard',
    annotations: READ,
    handler: (ctx, input) => listChecklistTags(ctx, input.checklistKey),
  }),
  defineOperation({
    id: 'addChecklistTags',
    method: 'POST',
    path: '/v3/checklists/:checklistKey/tags',
    summary: 'Tag a checklist',
    description: 'Body {"tags": ["name", ...]}. A tag is created on first use; a name differing only in letter case uses the existing tag. Answers the checklist\'s tags.',
    input: { checklistKey: checklistKey(), tags: tagList() },
    budget: 'standard',
    annotations: SET,
    handler: (ctx, input) => addChecklistTags(ctx, input.checklistKey, input.tags),
  }),
  defineOperation({
    id: 'removeChecklistTag',
    method: 'DELETE',
    path: '/v3/checklists/:checklistKey/tags',
    summary: 'Untag a checklist',
    description: 'Query `name`. A tag taken off its last carrier is removed. Answers the checklist\'s tags.',
    input: { checklistKey: checklistKey(), name: tagName() },
    query: ['name'],
    budget: 'standard',
    annotations: REMOVE,
    handler: (ctx, input) => removeChecklistTag(ctx, input.checklistKey, input.name),
  }),
  defineOperation({
    id: 'listAttachedTasks',
    method: 'GET',
    path: '/v3/checklists/:checklistKey/attached-tasks',
    summary: 'List the standalone tasks attached to a checklist',
    description: 'Answers {tasks: [task summary]}, oldest first, unpaged. These tasks are read and written at /v3/tasks/{taskKey}.',
    input: { checklistKey: checklistKey() },
    budget: 'standard',
    annotations: READ,
    handler: (ctx, input) => listAttachedTasks(ctx, input.checklistKey),
  }),
];
