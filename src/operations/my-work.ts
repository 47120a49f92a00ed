// The Tasks grid (spec v3 2.6, 4.5, 4.6): list_my_work, snooze_tasks, end_snooze_tasks and
// the saved-view tools. Every route is about one person: a workspace key is refused with
// 403 API_KEY_ACTS_AS_WORKSPACE (actor 'member'). Decisions: docs/tasks-grid.md.
import { z } from 'zod';
import { CREATE, READ, REMOVE, designed, documented, mixed, REPLACE } from './define';
import { defineWith } from './define-with';
import { cursor, guid, pageSizeStrict, queryBool, sortArg, text } from './input-kinds';
import { STATUSES } from '../domain/mywork/status';
import { NAMING_RULE } from './tasks/naming';
import { SORT_FIELDS } from '../domain/mywork/query';
import { VIEW_SORT_FIELDS } from '../domain/mywork/view-input';
import { endSnoozeResult, savedView, snoozeResult, workPage } from './shapes/my-work';
import { listMyWork } from '../domain/mywork/list';
import { endSnoozeTasks, MAX_SNOOZE_TASKS, snoozeTasks } from '../domain/mywork/snooze';
import { createView, deleteView, getView, listViews, updateView } from '../domain/mywork/views';
import { parseInstant } from '../domain/tasks/field-values';
import { lazy } from '../lazy';

const myWorkOperation = defineWith({ tag: 'Tasks grid', budget: 'standard' });

const MESSAGE_INSTANT = 'must be an ISO 8601 date and time such as 2026-03-02T09:00:00Z (an offset is honoured; no offset means UTC)';
const instant = () => z.string({ error: MESSAGE_INSTANT }).refine((v) => parseInstant(v) !== null, { error: MESSAGE_INSTANT }).meta({ format: 'date-time' });

const taskRef = lazy(() => z.object(
  {
    taskKey: guid('a task key (GUID)').describe('the task key (the row key of list_my_work)'),
    checklistKey: guid('a checklist key (GUID)')
      .optional()
      .describe("the checklist the task is on or attached to (the row's checklist.key); omitted only for a standalone task attached to no checklist"),
    snoozedUntil: z
      .unknown()
      .refine((v) => v === undefined, { error: 'is not accepted per task: one snooze date per call, in snoozedUntil' })
      .meta({ not: {} })
      .optional()
      .describe('refused: one snooze date per call'),
  },
  { error: 'must be {taskKey, checklistKey}' },
));
const taskRefs = lazy(() => z
  .array(taskRef(), { error: 'must be an array of {taskKey, checklistKey}' })
  .min(1, { error: 'must name at least one task' })
  .max(MAX_SNOOZE_TASKS, { error: `must name at most ${MAX_SNOOZE_TASKS} tasks per call` }));

const naming = lazy(() => z.object(
  {
    type: z.string({ error: 'must be TeamMember or Group' }).meta({ enum: ['TeamMember', 'Group'] }).optional().describe('TeamMember or Group (case-insensitive); required with id'),
    id: z.number({ error: 'must be an integer' }).int({ error: 'must be an integer' }).min(1, { error: 'must be 1 or more' }).meta({ maximum: 2147483647 }).optional().describe('member or group id'),
    name: text(500).meta({ pattern: '\\S' }).optional().describe('member full name, member email or group name; ignored when id is given'),
  },
  { error: 'must be {type, id} or {name}' },
).meta(NAMING_RULE));

const viewKey = () => guid('a saved view key (GUID)').describe('the saved view key');

const viewArgs = lazy(() => ({
  name: text(200, 'is required: the view name, at most 200 characters').meta({ minLength: 1, pattern: '\\S' }).describe('the view name, at most 200 characters (required)'),
  type: z.string({ error: 'must be Private, UsersGroups or Team' }).meta({ enum: ['Private', 'UsersGroups', 'Team'] }).optional().describe('Private (default), UsersGroups or Team; Core is refused. Team and UsersGroups need an Administrator'),
  search: z.string({ error: 'must be a string' }).max(1000, { error: 'must be at most 1,000 characters' }).optional().describe('at most 1,000 characters; stored and returned, applied by nothing in the API'),
  statuses: z.array(z.string({ error: 'must be a status name' }).meta({ enum: [...STATUSES] }), { error: 'must be an array of status names' }).meta({ minItems: 1 }).max(8, { error: 'must name at most 8 statuses' }).optional().describe('status names (Incomplete, Complete, NotApplicable, DueToday, Overdue, Halted, DueInFuture, Snoozed); omit for the four open ones; an empty list is refused'),
  allTemplates: z.boolean({ error: 'must be true or false' }).optional().describe('every template; when omitted, true if no templates are named, false otherwise; true with templates named is refused'),
  templates: z.array(guid('a template key (GUID)'), { error: 'must be an array of template keys' }).max(500, { error: 'must name at most 500 templates' }).optional().describe('template keys; duplicates dropped'),
  includeStandalone: z.boolean({ error: 'must be true or false' }).optional().describe('include standalone tasks; default true'),
  allAssignees: z.boolean({ error: 'must be true or false' }).optional().describe('everyone\'s tasks; default false (false with no assignees means the reading member); true with assignees named is refused'),
  includeUnassigned: z.boolean({ error: 'must be true or false' }).optional().describe('include tasks assigned to nobody; default false'),
  assignees: z.array(naming(), { error: 'must be an array of {type, id} or {name}' }).max(100, { error: 'must name at most 100 people or groups' }).optional().describe('people and groups, {type, id} or {name}; an ambiguous name is refused'),
  sort: sortArg([...VIEW_SORT_FIELDS]).describe('name, status, dueDateTime, checklistName, templateName, assignees, commentCount or tags, optionally with :asc or :desc; default dueDateTime:asc'),
  visibleTo: z.array(naming(), { error: 'must be an array of {type, id} or {name}' }).max(100, { error: 'must name at most 100 people or groups' }).optional().describe('who may use a UsersGroups view ({type, id} or {name}; a group shares with whoever is in it); refused on other types'),
}));

const ID = '[1-9][0-9]{0,8}';
const ASSIGNEE_TERM = `(me|unassigned|TeamMember:${ID}|Group:${ID})`;
const ASSIGNEE_PATTERN = `^(all|${ASSIGNEE_TERM}(,${ASSIGNEE_TERM})*)$`;
const GUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const GUID_LIST_PATTERN = `^${GUID}(,${GUID})*$`;

/** The saved view's rules across arguments (4.6 create_my_work_view; src/domain/mywork/view-input.ts), for the document. */
const VIEW_RULES = {
  not: {
    anyOf: [
      { required: ['allTemplates', 'templates'], properties: { allTemplates: { const: true }, templates: { minItems: 1 } } },
      { required: ['allAssignees', 'assignees'], properties: { allAssignees: { const: true }, assignees: { minItems: 1 } } },
    ],
  },
  dependentSchemas: { visibleTo: { required: ['type'], properties: { type: { const: 'UsersGroups' } } } },
};

export const myWorkOperations = [
  myWorkOperation({
    id: 'listMyWork',
    tool: 'list_my_work',
    method: 'GET',
    path: '/v3/my-work',
    summary: 'List my work (the Tasks grid)',
    fidelity: documented('4.5, 4.6'),
    description:
      'Rows of the Tasks grid: the checklist tasks and standalone tasks the acting member may see, filtered and sorted. ' +
      'Row action: use the checklist task tools when isStandalone is false (with the row key and checklist.key), the standalone task routes when true. ' +
      'Send every other argument unchanged with `after`; a cursor used with a different query or by a different member is refused.',
    input: () => ({
      status: z.string({ error: 'must be a comma-separated list of statuses' }).meta({ pattern: `^(all|(${STATUSES.join('|')})(,(${STATUSES.join('|')}))*)$` }).optional().describe(
        'comma-separated from Incomplete, Complete, NotApplicable, DueToday, Overdue, Halted, DueInFuture, Snoozed, or all. Default: Incomplete, DueInFuture, DueToday, Overdue. DueToday and DueInFuture are judged against the end of the day in the member\'s zone or X-SVC-Timezone',
      ),
      // The forms src/domain/mywork/assignee.ts reads (it also takes any letter case and spaces); ids must name someone.
      assignee: z.string({ error: 'must be a comma-separated list of assignees' }).meta({ pattern: ASSIGNEE_PATTERN }).optional().describe(
        'me (default; includes tasks assigned to my groups), all (cannot combine), unassigned, TeamMember:<id>, Group:<id>, comma-separated. Widening does not widen what the member may see',
      ),
      template: z.string({ error: 'must be comma-separated template keys' }).meta({ pattern: GUID_LIST_PATTERN }).optional().describe('comma-separated template keys; narrows checklist tasks only'),
      checklist: z.string({ error: 'must be comma-separated checklist keys' }).meta({ pattern: GUID_LIST_PATTERN }).optional().describe('comma-separated checklist keys: their tasks and the standalone tasks attached to them'),
      includeStandalone: queryBool().describe('include standalone tasks; default true (on REST only `true` switches it on once sent)'),
      sort: sortArg([...SORT_FIELDS]).describe(
        'dueDateTime, name, checklistName, templateName or commentCount with :asc or :desc; default dueDateTime:asc; tasks with no due date sort last in both directions',
      ),
      after: cursor().describe('the previous page\'s nextCursor'),
      pageSize: pageSizeStrict().describe('1 to 100, default 50'),
    }),
    query: ['status', 'assignee', 'template', 'checklist', 'includeStandalone', 'sort', 'after', 'pageSize'],
    output: workPage,
    refusals: ['404 TEMPLATE_NOT_FOUND', '404 CHECKLIST_NOT_FOUND'],
    annotations: READ,
    actor: 'member',
    handler: (ctx, input) => listMyWork(ctx, input),
  }),
  myWorkOperation({
    id: 'snoozeTasks',
    tool: 'snooze_tasks',
    method: 'POST',
    path: '/v3/my-work/snooze',
    summary: 'Snooze tasks',
    fidelity: documented('4.5, 4.6'),
    description:
      'Hides tasks from the acting member\'s Tasks grid until a date (they show under status Snoozed; the snooze ends by itself when the date passes). ' +
      'One date per call, at most 200 tasks. All or nothing: an unresolvable reference, a heading, or a task on a checklist the member may not see refuses the whole call. Personal; no activity is recorded.',
    input: () => ({
      snoozedUntil: instant().describe('date-time the snooze ends; must be in the future'),
      tasks: taskRefs().describe('at most 200 tasks, each {taskKey, checklistKey}; checklistKey omitted only for a standalone task attached to no checklist'),
    }),
    output: snoozeResult,
    refusals: ['403 FORBIDDEN', '404 CHECKLIST_NOT_FOUND', '404 TASK_NOT_FOUND'],
    annotations: REPLACE,
    actor: 'member',
    handler: (ctx, input) => snoozeTasks(ctx, parseInstant(input.snoozedUntil)!, input.tasks),
  }),
  myWorkOperation({
    id: 'endSnoozeTasks',
    tool: 'end_snooze_tasks',
    method: 'DELETE',
    path: '/v3/my-work/snooze',
    summary: 'End snoozes',
    fidelity: documented('4.5, 4.6'),
    description:
      'Ends the acting member\'s snooze of each task. A task not snoozed is left as is and the call succeeds; a reference naming nothing refuses the whole call. Never refused for lost checklist visibility.',
    input: () => ({ tasks: taskRefs().describe('at most 200 tasks, each {taskKey, checklistKey}') }),
    output: endSnoozeResult,
    refusals: ['404 CHECKLIST_NOT_FOUND', '404 TASK_NOT_FOUND'],
    annotations: REMOVE,
    actor: 'member',
    handler: (ctx, input) => endSnoozeTasks(ctx, input.tasks),
  }),
  myWorkOperation({
    id: 'listMyWorkViews',
    tool: 'list_my_work_views',
    method: 'GET',
    path: '/v3/my-work/views',
    summary: 'List saved views',
    fidelity: documented('4.5, 4.6'),
    description: 'The five core views first (Open tasks, Due today, Overdue, Completed, All tasks), then the saved views the acting member may use. A bare array (MCP: {result: [...]}).',
    input: () => ({}),
    output: () => z.array(savedView()),
    refusals: [],
    annotations: READ,
    actor: 'member',
    handler: (ctx) => listViews(ctx),
  }),
  myWorkOperation({
    id: 'getMyWorkView',
    noTool: 'the spec names no tool for a single view: list_my_work_views returns every view',
    method: 'GET',
    path: '/v3/my-work/views/:viewKey',
    summary: 'Get a saved view',
    fidelity: mixed('4.5', 'docs/tasks-grid.md', 'the single view route has no tool; its body is the saved view'),
    description: 'One core or saved view the acting member may use.',
    input: () => ({ viewKey: viewKey() }),
    output: savedView,
    refusals: ['404 VIEW_NOT_FOUND'],
    annotations: READ,
    actor: 'member',
    handler: (ctx, input) => getView(ctx, input.viewKey),
  }),
  myWorkOperation({
    id: 'createMyWorkView',
    tool: 'create_my_work_view',
    method: 'POST',
    path: '/v3/my-work/views',
    summary: 'Save a view',
    fidelity: documented('4.5, 4.6'),
    description:
      'Saves a view of the Tasks grid. Anyone may save a Private view; Team or UsersGroups needs a workspace Administrator. Not idempotent without a key (MCP: the idempotencyKey argument; a replay is marked _meta.idempotentReplay).',
    input: viewArgs,
    output: savedView,
    bodyRule: VIEW_RULES,
    refusals: ['403 FORBIDDEN', '404 TEMPLATE_NOT_FOUND'],
    annotations: CREATE,
    actor: 'member',
    status: 201,
    handler: (ctx, input) => createView(ctx, input),
  }),
  myWorkOperation({
    id: 'updateMyWorkView',
    tool: 'update_my_work_view',
    method: 'PUT',
    path: '/v3/my-work/views/:viewKey',
    summary: 'Replace a saved view',
    fidelity: documented('4.5, 4.6'),
    description:
      'A replacement: every omitted argument returns to its default (type Private). Core views cannot be written. A member may change the Private and UsersGroups views they created; an Administrator may change any; the author is kept.',
    input: () => ({ viewKey: viewKey(), ...viewArgs() }),
    output: savedView,
    bodyRule: VIEW_RULES,
    refusals: ['403 FORBIDDEN', '404 VIEW_NOT_FOUND', '404 TEMPLATE_NOT_FOUND'],
    annotations: REPLACE,
    actor: 'member',
    idempotencyArg: false, // spec v3 4.6: "the other arguments of create except idempotencyKey"
    handler: (ctx, input) => updateView(ctx, input.viewKey, input),
  }),
  myWorkOperation({
    id: 'deleteMyWorkView',
    tool: 'delete_my_work_view',
    method: 'DELETE',
    path: '/v3/my-work/views/:viewKey',
    summary: 'Delete a saved view',
    fidelity: designed('docs/tasks-grid.md', 'the method and path of deleting a saved view (4.5: not shown)'),
    description:
      'Deletes a saved view (the spec leaves the route unshown: docs/tasks-grid.md). Affects no task; a member whose default it was lands on the Open tasks core view. Same permissions as update; core views cannot be deleted.',
    input: () => ({ viewKey: viewKey() }),
    refusals: ['403 FORBIDDEN', '404 VIEW_NOT_FOUND'],
    annotations: REMOVE,
    actor: 'member',
    status: 204,
    handler: (ctx, input) => deleteView(ctx, input.viewKey),
  }),
];
