// Task routes (spec v3 4.3): every row of the table with its MCP tool, the field, file and
// table-row routes, and the same suffixes for standalone tasks under /v3/tasks/{taskKey}
// (EMULATOR.md; no MCP tools: the spec names none). Bodies: docs/tasks.md.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { z } from 'zod';
import type { Ctx } from '../context';
import { CREATE, READ, REMOVE, SET, defineOperation, type Operation } from './define';
import { guid, pageSizeStrict, cursor } from './schemas';
import { findChecklistTask, findStandaloneTask, type TaskTarget } from '../domain/tasks/target';
import { listChecklistTasks, parseStatusFilter } from '../domain/tasks/list';
import { stateOf, taskDetail } from '../domain/tasks/views';
import { assertTaskReadable } from '../domain/tasks/guard';
import { clearNotApplicable, completeTask, markNotApplicable, uncompleteTask } from '../domain/tasks/status';
import { clearAssignees, readAssignees, setAssignees } from '../domain/tasks/assignees';
import { resolveNamingList } from '../domain/tasks/naming';
import { clearDueDate, readDueDate, setDueDate } from '../domain/tasks/due';
import { addComment, deleteComment, listComments, prepareComment } from '../domain/tasks/comments';
import { endSnooze, getSnooze, setSnooze } from '../domain/tasks/snooze';
import { addTaskTags, listTaskTags, removeTaskTag } from '../domain/tasks/tags';
import { taskActivity } from '../domain/tasks/feed';
import { addFile, addRows, answerField, answerFields, getField, listFields, listFiles, removeFile, removeRows, setCells, MAX_FIELDS_PER_CALL } from '../domain/tasks/fields';
import { parseInstant } from '../domain/tasks/field-values';

type Where = 'checklist' | 'standalone';
const BASE: Record<Where, string> = { checklist: '/v3/checklists/:checklistKey/tasks/:taskKey', standalone: '/v3/tasks/:taskKey' };

const keyShape = (w: Where): Record<string, z.ZodType> =>
  w === 'checklist'
    ? { checklistKey: guid('a checklist key (GUID)'), taskKey: guid('a task key (GUID)') }
    : { taskKey: guid('a task key (GUID)') };

const find = (ctx: Ctx, input: any, w: Where): TaskTarget =>
  w === 'checklist' ? findChecklistTask(ctx, input.checklistKey, input.taskKey) : findStandaloneTask(ctx, input.taskKey);

/** Operation id: `completeTask` for a checklist task, `completeStandaloneTask` for the standalone twin. */
const opId = (w: Where, name: string) => (w === 'checklist' ? name : /Task/.test(name) ? name.replace(/Task/, 'StandaloneTask') : `${name}OfStandaloneTask`);
const tool = (w: Where, name: string) => (w === 'checklist' ? name : undefined);
const whereText = (w: Where) => (w === 'checklist' ? 'a checklist task' : 'a standalone task');

const MESSAGE_INSTANT = 'must be an ISO 8601 date and time such as 2026-03-02T09:00:00Z or 2026-03-02T10:00:00+01:00 (offsets up to ±18:00; no offset means UTC)';
const instant = () => z.string({ error: MESSAGE_INSTANT }).refine((v) => parseInstant(v) !== null, { error: MESSAGE_INSTANT });

const namingEntry = () =>
  z.object(
    {
      type: z.string({ error: 'must be TeamMember or Group' }).optional(),
      id: z.number({ error: 'must be an integer' }).int({ error: 'must be an integer' }).min(1, { error: 'must be 1 or more' }).optional(),
      name: z.string({ error: 'must be a string' }).max(500, { error: 'must be at most 500 characters' }).optional(),
    },
    { error: 'must be {type, id} or {name}' },
  );
const namingList = (what: string) => z.array(namingEntry(), { error: `must be an array of {type, id} or {name} (${what})` }).max(100, { error: 'must name at most 100 people or groups' });

const fileInput = {
  name: z.string({ error: 'must be the file name (a string)' }).min(1, { error: 'must not be empty' }).max(255, { error: 'must be at most 255 characters' }),
  contentType: z.string({ error: 'must be a media type such as application/pdf' }).max(255, { error: 'must be at most 255 characters' }).optional(),
  data: z.string({ error: 'must be the file bytes, base64-encoded' }),
};
const intId = (what: string) => z.number({ error: `must be an integer (${what})` }).int({ error: `must be an integer (${what})` }).min(1, { error: 'must be 1 or more' }).max(2147483647, { error: 'is too large' });
const required = (msg: string) => z.unknown().refine((v) => v !== undefined, { error: msg });

function suffixOperations(w: Where): Operation[] {
  const base = BASE[w];
  const k = keyShape(w);
  const fieldKey = { fieldKey: guid('a field key (GUID)') };
  return [
    defineOperation({
      id: opId(w, 'completeTask'),
      tool: tool(w, 'complete_task'),
      method: 'POST',
      path: `${base}/complete`,
      summary: `Complete ${whereText(w)}`,
      description: 'No body. Returns the task as it now stands; already complete answers 200 and writes nothing. 409 when halted, hidden by a condition, or required fields are unanswered.',
      input: { ...k },
      budget: 'standard',
      annotations: SET,
      handler: (ctx, input: any) => completeTask(ctx, find(ctx, input, w)),
    }),
    defineOperation({
      id: opId(w, 'uncompleteTask'),
      tool: tool(w, 'uncomplete_task'),
      method: 'DELETE',
      path: `${base}/complete`,
      summary: `Uncomplete ${whereText(w)}`,
      description: 'The task becomes Incomplete. Returns the task.',
      input: { ...k },
      budget: 'standard',
      annotations: SET,
      handler: (ctx, input: any) => uncompleteTask(ctx, find(ctx, input, w)),
    }),
    defineOperation({
      id: opId(w, 'setTaskNotApplicable'),
      tool: tool(w, 'set_task_not_applicable'),
      method: 'POST',
      path: `${base}/not-applicable`,
      summary: `Mark ${whereText(w)} not applicable`,
      description: 'Stamps a completion time; fires no task_completed event. Returns the task.',
      input: { ...k },
      budget: 'standard',
      annotations: SET,
      handler: (ctx, input: any) => markNotApplicable(ctx, find(ctx, input, w)),
    }),
    defineOperation({
      id: opId(w, 'clearTaskNotApplicable'),
      tool: tool(w, 'clear_task_not_applicable'),
      method: 'DELETE',
      path: `${base}/not-applicable`,
      summary: `Clear not applicable on ${whereText(w)}`,
      description: 'The task becomes Incomplete. Returns the task.',
      input: { ...k },
      budget: 'standard',
      annotations: SET,
      handler: (ctx, input: any) => clearNotApplicable(ctx, find(ctx, input, w)),
    }),
    defineOperation({
      id: opId(w, 'getTaskAssignees'),
      method: 'GET',
      path: `${base}/assignees`,
      summary: `Read the assignees of ${whereText(w)}`,
      description: 'Returns {assignees (groups first, then by name), isAssignedExclusively}.',
      input: { ...k },
      budget: 'standard',
      annotations: READ,
      handler: (ctx, input: any) => readAssignees(ctx, find(ctx, input, w)),
    }),
    defineOperation({
      id: opId(w, 'setTaskAssignees'),
      tool: tool(w, 'set_task_assignees'),
      method: 'PUT',
      path: `${base}/assignees`,
      summary: `Assign ${whereText(w)}`,
      description:
        'Replaces every assignee. Each entry is {type, id} (TeamMember or Group) or {name} (full name, email or group name; ignored when id is given). An ambiguous name is refused listing the candidates. Returns the task.',
      input: { ...k, assignees: namingList('the assignees'), isAssignedExclusively: z.boolean({ error: 'must be true or false' }).optional() },
      budget: 'standard',
      annotations: SET,
      handler: (ctx, input: any) => {
        const refs = resolveNamingList(ctx, input.assignees, 'assignees');
        return setAssignees(ctx, find(ctx, input, w), refs, input.isAssignedExclusively);
      },
    }),
    defineOperation({
      id: opId(w, 'clearTaskAssignees'),
      tool: tool(w, 'clear_task_assignees'),
      method: 'DELETE',
      path: `${base}/assignees`,
      summary: `Unassign everyone from ${whereText(w)}`,
      description: 'Returns the task. The isAssignedExclusively flag is kept.',
      input: { ...k },
      budget: 'standard',
      annotations: SET,
      handler: (ctx, input: any) => clearAssignees(ctx, find(ctx, input, w)),
    }),
    defineOperation({
      id: opId(w, 'getTaskDueDate'),
      method: 'GET',
      path: `${base}/due-date`,
      summary: `Read the due date of ${whereText(w)}`,
      description: 'Returns {dueDateTime}; an empty object when the task has none.',
      input: { ...k },
      budget: 'standard',
      annotations: READ,
      handler: (ctx, input: any) => readDueDate(ctx, find(ctx, input, w)),
    }),
    defineOperation({
      id: opId(w, 'setTaskDueDate'),
      tool: tool(w, 'set_task_due_date'),
      method: 'PUT',
      path: `${base}/due-date`,
      summary: `Set the due date of ${whereText(w)}`,
      description: 'Body {dueDateTime}. Returns the task. The activity entry is written in the X-SVC-Timezone zone, else the member profile zone, else UTC.',
      input: { ...k, dueDateTime: instant() },
      budget: 'standard',
      annotations: SET,
      handler: (ctx, input: any) => setDueDate(ctx, find(ctx, input, w), input.dueDateTime),
    }),
    defineOperation({
      id: opId(w, 'clearTaskDueDate'),
      tool: tool(w, 'clear_task_due_date'),
      method: 'DELETE',
      path: `${base}/due-date`,
      summary: `Clear the due date of ${whereText(w)}`,
      description: 'Returns the task.',
      input: { ...k },
      budget: 'standard',
      annotations: SET,
      handler: (ctx, input: any) => clearDueDate(ctx, find(ctx, input, w)),
    }),
    defineOperation({
      id: opId(w, 'listTaskComments'),
      method: 'GET',
      path: `${base}/comments`,
      summary: `List the comments of ${whereText(w)}`,
      description: 'Returns {comments}, oldest first.',
      input: { ...k },
      budget: 'standard',
      annotations: READ,
      handler: (ctx, input: any) => listComments(ctx, find(ctx, input, w)),
    }),
    defineOperation({
      id: opId(w, 'addTaskComment'),
      tool: tool(w, 'add_task_comment'),
      method: 'POST',
      path: `${base}/comments`,
      summary: `Comment on ${whereText(w)}`,
      description:
        'Body {html | text, assignedMentioned?, attachment?: {name, contentType, data (base64)}}. A mention in html is an element with data-mention-type and data-mention-id. People in assignedMentioned are mentioned and assigned. Not idempotent without an Idempotency-Key. Answers 201 with the comment.',
      input: {
        ...k,
        html: z.string({ error: 'must be a string of HTML' }).max(100_000, { error: 'must be at most 100,000 characters' }).optional(),
        text: z.string({ error: 'must be a string' }).max(50_000, { error: 'must be at most 50,000 characters' }).optional(),
        assignedMentioned: namingList('people to mention and assign').optional(),
        attachment: z.object(fileInput, { error: 'must be {name, contentType, data}' }).optional(),
      },
      budget: 'standard',
      annotations: CREATE,
      status: 201,
      handler: (ctx, input: any) => {
        const prepared = prepareComment(ctx, input);
        return addComment(ctx, find(ctx, input, w), prepared);
      },
    }),
    defineOperation({
      id: opId(w, 'removeTaskComment'),
      tool: tool(w, 'remove_task_comment'),
      method: 'DELETE',
      path: `${base}/comments/:commentId`,
      summary: `Delete a comment of ${whereText(w)}`,
      description: 'Its author or an Administrator. Answers 204.',
      input: { ...k, commentId: intId('the comment id') },
      budget: 'standard',
      annotations: REMOVE,
      status: 204,
      handler: (ctx, input: any) => deleteComment(ctx, find(ctx, input, w), input.commentId),
    }),
    defineOperation({
      id: opId(w, 'getTaskSnooze'),
      tool: tool(w, 'get_task_snooze'),
      method: 'GET',
      path: `${base}/snooze`,
      summary: `Read your snooze of ${whereText(w)}`,
      description: 'Personal to the member the key acts as. Returns {isSnoozed, snoozedUntil}.',
      input: { ...k },
      budget: 'standard',
      annotations: READ,
      actor: 'member',
      handler: (ctx, input: any) => getSnooze(ctx, find(ctx, input, w)),
    }),
    defineOperation({
      id: opId(w, 'setTaskSnooze'),
      tool: tool(w, 'set_task_snooze'),
      method: 'PUT',
      path: `${base}/snooze`,
      summary: `Snooze ${whereText(w)}`,
      description: 'Body {snoozedUntil} (in the future). Personal; records no activity. Returns {isSnoozed, snoozedUntil}.',
      input: { ...k, snoozedUntil: instant() },
      budget: 'standard',
      annotations: SET,
      actor: 'member',
      handler: (ctx, input: any) => setSnooze(ctx, find(ctx, input, w), parseInstant(input.snoozedUntil)!),
    }),
    defineOperation({
      id: opId(w, 'endTaskSnooze'),
      tool: tool(w, 'end_task_snooze'),
      method: 'DELETE',
      path: `${base}/snooze`,
      summary: `End your snooze of ${whereText(w)}`,
      description: 'Harmless when not snoozed. Returns {isSnoozed}.',
      input: { ...k },
      budget: 'standard',
      annotations: SET,
      actor: 'member',
      handler: (ctx, input: any) => endSnooze(ctx, find(ctx, input, w)),
    }),
    defineOperation({
      id: opId(w, 'listTaskTags'),
      method: 'GET',
      path: `${base}/tags`,
      summary: `List the tags of ${whereText(w)}`,
      description: 'Returns {tags}: the task\'s own tags in name order.',
      input: { ...k },
      budget: 'standard',
      annotations: READ,
      handler: (ctx, input: any) => listTaskTags(ctx, find(ctx, input, w)),
    }),
    defineOperation({
      id: opId(w, 'addTaskTags'),
      tool: tool(w, 'add_task_tags'),
      method: 'POST',
      path: `${base}/tags`,
      summary: `Tag ${whereText(w)}`,
      description: 'Body {tags: [name, ...]}; a tag is created on first application. Returns {tags}.',
      input: {
        ...k,
        tags: z
          .array(
            z.string({ error: 'must be a tag name (a string)' }).refine((s) => s.trim().length > 0, { error: 'must not be empty' }).refine((s) => s.trim().length <= 100, { error: 'must be at most 100 characters' }),
            { error: 'must be an array of tag names' },
          )
          .min(1, { error: 'must name at least one tag' })
          .max(50, { error: 'must name at most 50 tags' }),
      },
      budget: 'standard',
      annotations: SET,
      handler: (ctx, input: any) => addTaskTags(ctx, find(ctx, input, w), input.tags),
    }),
    defineOperation({
      id: opId(w, 'removeTaskTag'),
      tool: tool(w, 'remove_task_tag'),
      method: 'DELETE',
      path: `${base}/tags`,
      summary: `Untag ${whereText(w)}`,
      description: 'Query name=<tag>. A tag is removed with its last carrier. Harmless when the task does not carry it. Returns {tags}.',
      input: { ...k, name: z.string({ error: 'must be a tag name' }).refine((s) => s.trim().length > 0, { error: 'must not be empty' }) },
      query: ['name'],
      budget: 'standard',
      annotations: SET,
      handler: (ctx, input: any) => removeTaskTag(ctx, find(ctx, input, w), input.name),
    }),
    defineOperation({
      id: opId(w, 'getTaskActivity'),
      tool: tool(w, 'get_task_activity'),
      method: 'GET',
      path: `${base}/activity`,
      summary: `Activity of ${whereText(w)}`,
      description: 'Who did what and when, newest first; paged (after, pageSize).',
      input: { ...k, after: cursor(), pageSize: pageSizeStrict() },
      query: ['after', 'pageSize'],
      budget: 'standard',
      annotations: READ,
      handler: (ctx, input: any) => taskActivity(ctx, find(ctx, input, w), input),
    }),
    // ── fields, files, table rows (no MCP tools: the spec names none) ──
    defineOperation({
      id: opId(w, 'listTaskFields'),
      method: 'GET',
      path: `${base}/fields`,
      summary: `Read the fields of ${whereText(w)}`,
      description: 'Returns {fields}, leaving out fields a condition hides.',
      input: { ...k },
      budget: 'standard',
      annotations: READ,
      handler: (ctx, input: any) => listFields(ctx, find(ctx, input, w)),
    }),
    defineOperation({
      id: opId(w, 'answerTaskFields'),
      method: 'PATCH',
      path: `${base}/fields`,
      summary: `Answer up to ${MAX_FIELDS_PER_CALL} fields of ${whereText(w)}`,
      description: 'Body {fields: [{key, value}]}; all or nothing; null clears. Returns {fields}.',
      input: {
        ...k,
        fields: z
          .array(z.object({ key: guid('a field key (GUID)'), value: required('is required (null clears the answer)') }, { error: 'must be {key, value}' }), {
            error: 'must be an array of {key, value}',
          })
          .min(1, { error: 'must answer at least one field' })
          .max(MAX_FIELDS_PER_CALL, { error: `must answer at most ${MAX_FIELDS_PER_CALL} fields in one call` }),
      },
      budget: 'standard',
      annotations: SET,
      handler: (ctx, input: any) => answerFields(ctx, find(ctx, input, w), input.fields),
    }),
    defineOperation({
      id: opId(w, 'getTaskField'),
      method: 'GET',
      path: `${base}/fields/:fieldKey`,
      summary: `Read one field of ${whereText(w)}`,
      input: { ...k, ...fieldKey },
      budget: 'standard',
      annotations: READ,
      handler: (ctx, input: any) => getField(ctx, find(ctx, input, w), input.fieldKey),
    }),
    defineOperation({
      id: opId(w, 'answerTaskField'),
      method: 'PUT',
      path: `${base}/fields/:fieldKey`,
      summary: `Answer one field of ${whereText(w)}`,
      description: 'Body {value}; null clears. Returns the field.',
      input: { ...k, ...fieldKey, value: required('is required (null clears the answer)') },
      budget: 'standard',
      annotations: SET,
      handler: (ctx, input: any) => answerField(ctx, find(ctx, input, w), input.fieldKey, input.value),
    }),
    defineOperation({
      id: opId(w, 'listFieldFiles'),
      method: 'GET',
      path: `${base}/fields/:fieldKey/files`,
      summary: `List the files of a File Upload field of ${whereText(w)}`,
      input: { ...k, ...fieldKey },
      budget: 'standard',
      annotations: READ,
      handler: (ctx, input: any) => listFiles(ctx, find(ctx, input, w), input.fieldKey),
    }),
    defineOperation({
      id: opId(w, 'addFieldFile'),
      method: 'POST',
      path: `${base}/fields/:fieldKey/files`,
      summary: `Upload a file to a File Upload field of ${whereText(w)}`,
      description: 'Body {name, contentType, data (base64)}; at most 5 MB decoded. Answers 201 with the file; fires file_uploaded.',
      input: { ...k, ...fieldKey, ...fileInput },
      budget: 'standard',
      annotations: CREATE,
      status: 201,
      handler: (ctx, input: any) => addFile(ctx, find(ctx, input, w), input.fieldKey, input),
    }),
    defineOperation({
      id: opId(w, 'removeFieldFile'),
      method: 'DELETE',
      path: `${base}/fields/:fieldKey/files/:fileId`,
      summary: `Remove a file from a File Upload field of ${whereText(w)}`,
      description: 'Answers 204.',
      input: { ...k, ...fieldKey, fileId: intId('the file id') },
      budget: 'standard',
      annotations: REMOVE,
      status: 204,
      handler: (ctx, input: any) => removeFile(ctx, find(ctx, input, w), input.fieldKey, input.fileId),
    }),
    defineOperation({
      id: opId(w, 'addTableRows'),
      method: 'POST',
      path: `${base}/fields/:fieldKey/rows`,
      summary: `Add rows to a Table field of ${whereText(w)}`,
      description: 'Body {rows: [[cell, ...], ...]} (strings or null, in column order). Returns the field.',
      input: {
        ...k,
        ...fieldKey,
        rows: z.array(z.unknown(), { error: 'must be an array of rows' }).min(1, { error: 'must add at least one row' }).max(1000, { error: 'must add at most 1,000 rows' }),
      },
      budget: 'standard',
      annotations: CREATE,
      handler: (ctx, input: any) => addRows(ctx, find(ctx, input, w), input.fieldKey, input.rows),
    }),
    defineOperation({
      id: opId(w, 'removeTableRows'),
      method: 'DELETE',
      path: `${base}/fields/:fieldKey/rows`,
      summary: `Remove rows from a Table field of ${whereText(w)}`,
      description: 'Query rowIndexes=1,3 (from 1). Returns the field.',
      input: {
        ...k,
        ...fieldKey,
        rowIndexes: z
          .string({ error: 'must be row numbers from 1, comma-separated' })
          .regex(/^\s*[1-9]\d{0,5}\s*(,\s*[1-9]\d{0,5}\s*)*$/, { error: 'must be row numbers from 1, comma-separated' }),
      },
      query: ['rowIndexes'],
      budget: 'standard',
      annotations: REMOVE,
      handler: (ctx, input: any) => removeRows(ctx, find(ctx, input, w), input.fieldKey, String(input.rowIndexes).split(',').map((s) => Number(s.trim()))),
    }),
    defineOperation({
      id: opId(w, 'setTableCells'),
      method: 'PATCH',
      path: `${base}/fields/:fieldKey/rows`,
      summary: `Set cells of a Table field of ${whereText(w)}`,
      description: 'Body {cells: [{rowIndex, columnIndex | columnKey, value}]} (indexes from 1; value a string or null). Returns the field.',
      input: {
        ...k,
        ...fieldKey,
        cells: z
          .array(
            z.object(
              {
                rowIndex: intId('row number from 1'),
                columnIndex: intId('column number from 1').optional(),
                columnKey: guid('a column key (GUID)').optional(),
                value: z.string({ error: 'must be a string or null' }).max(10_000, { error: 'must be at most 10,000 characters' }).nullable(),
              },
              { error: 'must be {rowIndex, columnIndex | columnKey, value}' },
            ),
            { error: 'must be an array of cells' },
          )
          .min(1, { error: 'must set at least one cell' })
          .max(1000, { error: 'must set at most 1,000 cells' }),
      },
      budget: 'standard',
      annotations: SET,
      handler: (ctx, input: any) => setCells(ctx, find(ctx, input, w), input.fieldKey, input.cells),
    }),
  ];
}

export const taskOperations: Operation[] = [
  defineOperation({
    id: 'listChecklistTasks',
    tool: 'list_checklist_tasks',
    method: 'GET',
    path: '/v3/checklists/:checklistKey/tasks',
    summary: 'List checklist tasks',
    description:
      'Every task in checklist order, unpaged. status: comma-separated Incomplete, Complete, NotApplicable (case, spaces, hyphens and underscores ignored); any status filter leaves headings out.',
    input: { checklistKey: guid('a checklist key (GUID)'), status: z.string({ error: 'must be Incomplete, Complete or NotApplicable, comma-separated' }).optional() },
    query: ['status'],
    budget: 'standard',
    annotations: READ,
    handler: (ctx, input) => listChecklistTasks(ctx, input.checklistKey, parseStatusFilter(input.status)),
  }),
  defineOperation({
    id: 'getTask',
    tool: 'get_task',
    method: 'GET',
    path: '/v3/checklists/:checklistKey/tasks/:taskKey',
    summary: 'Get task detail',
    description: 'The task with assignees, fields, comments, its checklist and its own tags.',
    input: { checklistKey: guid('a checklist key (GUID)'), taskKey: guid('a task key (GUID)') },
    budget: 'standard',
    annotations: READ,
    handler: (ctx, input: any) => {
      const t = findChecklistTask(ctx, input.checklistKey, input.taskKey);
      assertTaskReadable(ctx, t);
      return taskDetail(ctx, t, stateOf(ctx, t));
    },
  }),
  ...suffixOperations('checklist'),
  ...suffixOperations('standalone'),
];
