// Legacy task routes (legacy spec 4.2): details, assignments (read v1; replace and clear v2),
// assign-by-name (v2), status (v2), comment, update-task-content. Each writes through the v3
// task code (src/domain/tasks), so rights, the completion checks (409) and the events are
// the same: a status set to Complete fires task_completed, a new assignee task_assigned,
// a comment comment_created. Bodies are validated (400) before anything is looked up (404).
import type { Ctx } from '../../context';
import { ApiError, notFound } from '../../errors';
import { findMember } from '../../domain/people/members';
import { addComment, prepareComment } from '../../domain/tasks/comments';
import { answerField } from '../../domain/tasks/fields';
import { assertTaskReadable } from '../../domain/tasks/guard';
import { resolveNaming } from '../../domain/tasks/naming';
import type { TaskRow } from '../../rows/tasks';
import { clearNotApplicable, completeTask, markNotApplicable, uncompleteTask } from '../../domain/tasks/status';
import { clearAssignees, setAssignees } from '../../domain/tasks/assignees';
import { findChecklistTask, findStandaloneTask, reload, type TaskTarget } from '../../domain/tasks/target';
import { assigneesOf, storedAnswers } from '../../domain/tasks/views';
import type { AssigneeRef } from '../../rows/people';
import { ANSWERABLE } from '../../domain/template-format/document-schema';
import { defineLegacyRoute, legacyError } from '../define';
import { bad, boolParam, boolProp, bodyObject, guidProp, intParam, intProp, prop, requiredGuidParam, stringProp } from '../params';
import { canReadTask, checklistOfId, targetOf, taskOfId } from '../lookup';
import { contentById, fieldKeyOfTaskContent } from '../content-ids';
import { legacyComment, legacyContent, legacyTask } from '../shapes';
import { commentById } from '../../rows/comments';
import { groupIdsOfMemberIn } from '../../rows/checklist-access';
import { tasksAssignedTo } from '../../rows/task-assignees';

/** Control types of legacy spec 2 (task control writes and the template control filter). */
export const LEGACY_CONTROL_TYPES = ['ShortText', 'LongText', 'EmailInput', 'Website', 'Date', 'DropDown', 'MultiChoice', 'SubTasks', 'Members', 'Table', 'Text', 'Image', 'Video', 'File', 'FileUpload'];

/** A legacy control type name, case-insensitive, or 400. */
export function controlType(v: string, name: string, extra: string[] = []): string {
  const all = [...extra, ...LEGACY_CONTROL_TYPES];
  const found = all.find((t) => t.toLowerCase() === v.trim().toLowerCase());
  if (!found) throw bad(`${name} ${v} is not a control type: use one of ${all.join(', ')}.`);
  return found;
}

/** GET /api/task/details: checklistId 0 with the key of a standalone task reads that task (designed: docs/legacy.md). */
export function taskDetailsLegacy(ctx: Ctx, q: URLSearchParams) {
  const checklistId = intParam(q, 'checklistId');
  const taskKey = requiredGuidParam(q, 'taskKey');
  const t = checklistId === 0 ? findStandaloneTask(ctx, taskKey) : findChecklistTask(ctx, checklistOfId(ctx, checklistId).key, taskKey);
  assertTaskReadable(ctx, t);
  return legacyTask(ctx, t);
}

/** GET /api/task/assignments: the tasks assigned to a member (optionally through their groups) or a group. */
export function assignmentsLegacy(ctx: Ctx, q: URLSearchParams) {
  const assigneeId = intParam(q, 'assigneeId');
  const assigneeType = intParam(q, 'assigneeType');
  if (assigneeType !== 1 && assigneeType !== 2) throw bad('assigneeType must be 1 (team member) or 2 (group).');
  const viaGroups = boolParam(q, 'includeTeamMemberGroups', false);
  const completed = boolParam(q, 'includeCompletedTasks', false);
  const who: [string, number][] = [[assigneeType === 1 ? 'TeamMember' : 'Group', assigneeId]];
  if (assigneeType === 1 && viaGroups) {
    for (const g of groupIdsOfMemberIn(ctx.db, ctx.workspace.id, assigneeId)) who.push(['Group', g]);
  }
  const ids = new Set<number>();
  const rows: TaskRow[] = [];
  for (const [type, id] of who) {
    for (const r of tasksAssignedTo(ctx.db, type, id, ctx.workspace.id)) {
      if (ids.has(r.id)) continue;
      if (!completed && r.status !== null && r.status !== 'Incomplete') continue;
      ids.add(r.id);
      rows.push(r);
    }
  }
  const out = rows
    .sort((a, b) => a.id - b.id)
    .map((r) => targetOf(ctx, r))
    .filter((t) => canReadTask(ctx, t));
  if (out.length === 0) throw legacyError(404, 'No tasks match.');
  return out.map((t) => legacyTask(ctx, t));
}

const STATUSES = { complete: 'Complete', incomplete: 'Incomplete', notapplicable: 'NotApplicable' } as const;

/** The member a legacy *UserID names: 0 is the workspace's anonymous member; others must be in the workspace (404). */
function userOf(ctx: Ctx, id: number, name: string): number {
  if (id === 0) return ctx.workspace.anonymous_member_id ?? ctx.actor.member.id;
  if (id < 0 || !findMember(ctx, id)) throw notFound('MEMBER_NOT_FOUND', `${name} ${id} names no member of this workspace (send 0 for anonymous).`);
  return id;
}

/** PUT /api/task/status (v2): sets the named status, whatever the current one; answers the full task. */
export function statusLegacy(ctx: Ctx, body: unknown) {
  const b = bodyObject(body);
  const taskId = intProp(b, 'taskId');
  const raw = stringProp(b, 'status');
  const status = STATUSES[raw.trim().toLowerCase() as keyof typeof STATUSES];
  if (!status) throw bad(`status ${raw} is not valid: use Complete, Incomplete or NotApplicable.`);
  const by = intProp(b, 'modifiedByUserID');
  let t = taskOfId(ctx, taskId);
  const userId = userOf(ctx, by, 'modifiedByUserID');
  // Complete ⇄ NotApplicable passes through Incomplete inside this one request: the checklist's
  // status is settled once, at the end, so a checklist that stays complete is neither reopened
  // nor completed a second time (v3 6.3: checklist_completed fires when it "becomes complete").
  // Who changed it is the member the request names (0: anonymous); rights are checked as the key.
  const unsettled = { settle: false };
  const actedBy = { onBehalfOf: userId };
  inLegacyWords(() => {
    if (status === 'Complete') {
      if (t.task.status === 'NotApplicable') t = reloaded(ctx, (c, x) => clearNotApplicable(c, x, unsettled), t);
      completeTask(ctx, t, actedBy);
    } else if (status === 'NotApplicable') {
      if (t.task.status === 'Complete') t = reloaded(ctx, (c, x) => uncompleteTask(c, x, unsettled), t);
      markNotApplicable(ctx, t, actedBy);
    } else if (t.task.status === 'Complete') uncompleteTask(ctx, t);
    else if (t.task.status === 'NotApplicable') clearNotApplicable(ctx, t);
    else if (t.task.is_heading) completeTask(ctx, t); // a heading has no status: the v3 refusal (400)
  });
  // The full task after the change (legacy 3), its checklist's status included: read afresh.
  return legacyTask(ctx, taskOfId(ctx, taskId));
}

/**
 * The v3 domain's refusals in the legacy request's terms (issue 39 g): a task is named here by
 * `taskId`, not `taskKey`, and a name by a name only (assign-by-name takes no `{type, id}`).
 */
function inLegacyWords<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (!(e instanceof ApiError) || e.code !== 'VALIDATION_ERROR') throw e;
    let message = e.message.replace(/^taskKey names a heading/, 'taskId names a heading');
    message = message.replace(/^(assigneeNames\[\d+\])\.name (.*) Name one of them by \{type, id\}\.$/, '$1 $2 Send a fuller name or the e-mail address of the one you mean.');
    if (message === e.message) throw e;
    throw bad(message);
  }
}

function reloaded(ctx: Ctx, step: (ctx: Ctx, t: TaskTarget) => unknown, t: TaskTarget): TaskTarget {
  step(ctx, t);
  return reload(ctx, t);
}

/** Checks the shape of `assignees` (400) and answers the resolver that checks who they name. */
function assigneeList(b: Record<string, unknown>): (ctx: Ctx) => AssigneeRef[] {
  const v = prop(b, 'assignees');
  if (v === undefined || v === null) throw bad('assignees is required: an array of {assigneeId, assigneeType}.');
  if (!Array.isArray(v)) throw bad('assignees must be an array of {assigneeId, assigneeType}.');
  const entries = v.map((e, i) => {
    if (e === null || typeof e !== 'object' || Array.isArray(e)) throw bad(`assignees[${i}] must be an object {assigneeId, assigneeType}.`);
    const id = intProp(e as Record<string, unknown>, 'assigneeId');
    const type = intProp(e as Record<string, unknown>, 'assigneeType');
    if (type !== 1 && type !== 2) throw bad(`assignees[${i}].assigneeType must be 1 (team member) or 2 (group).`);
    return { id, type: type === 1 ? 'TeamMember' : 'Group' };
  });
  return (ctx: Ctx) => {
    const out: AssigneeRef[] = [];
    entries.forEach((e, i) => {
      const r = resolveNaming(ctx, e, `assignees[${i}]`);
      if (!out.some((o) => o.type === r.type && o.id === r.id)) out.push(r);
    });
    return out;
  };
}

/** PUT /api/task/assignments (v2): replaces every assignee. */
export function replaceAssignmentsLegacy(ctx: Ctx, body: unknown) {
  const b = bodyObject(body);
  const taskId = intProp(b, 'taskId');
  const resolve = assigneeList(b);
  const exclusive = boolProp(b, 'isAssignedExclusively');
  const refs = resolve(ctx);
  const t = taskOfId(ctx, taskId);
  setAssignees(ctx, t, refs, exclusive);
  return legacyTask(ctx, reload(ctx, t));
}

/** POST /api/task/assign-by-name (v2): names of members (full name or e-mail) or groups, each matching exactly one. */
export function assignByNameLegacy(ctx: Ctx, body: unknown) {
  const b = bodyObject(body);
  const taskId = intProp(b, 'taskId');
  const names = prop(b, 'assigneeNames');
  if (names === undefined || names === null) throw bad('assigneeNames is required: an array of member or group names.');
  if (!Array.isArray(names)) throw bad('assigneeNames must be an array of strings.');
  names.forEach((n, i) => {
    if (typeof n !== 'string' || n.trim() === '') throw bad(`assigneeNames[${i}] must be a non-empty string.`);
  });
  const exclusive = boolProp(b, 'isAssignedExclusively');
  const replace = boolProp(b, 'deleteExistingAssignees');
  const named: AssigneeRef[] = [];
  (names as string[]).forEach((n, i) => {
    const r = inLegacyWords(() => resolveNaming(ctx, { name: n }, `assigneeNames[${i}]`));
    if (!named.some((o) => o.type === r.type && o.id === r.id)) named.push(r);
  });
  const t = taskOfId(ctx, taskId);
  assertTaskReadable(ctx, t);
  const kept: AssigneeRef[] = replace ? [] : assigneesOf(ctx, t.task.id).map((a) => ({ type: a.type, id: a.id }));
  const all = [...kept, ...named.filter((n) => !kept.some((k) => k.type === n.type && k.id === n.id))];
  setAssignees(ctx, t, all, exclusive);
  return legacyTask(ctx, reload(ctx, t));
}

/** DELETE /api/task/assignments (v2): removes every assignee. */
export function clearAssignmentsLegacy(ctx: Ctx, q: URLSearchParams) {
  const t = taskOfId(ctx, intParam(q, 'taskId'));
  clearAssignees(ctx, t);
  return legacyTask(ctx, reload(ctx, t));
}

/** POST /api/task/comment: answers the created comment. */
export function commentLegacy(ctx: Ctx, body: unknown) {
  const b = bodyObject(body);
  const taskId = intProp(b, 'taskId');
  const html = stringProp(b, 'commentHtml');
  const by = intProp(b, 'createdByUserID');
  const prepared = prepareComment(ctx, { html });
  const t = taskOfId(ctx, taskId);
  const author = userOf(ctx, by, 'createdByUserID');
  const c = addComment(ctx, t, prepared, { onBehalfOf: author });
  const row = commentById(ctx.db, c.id)!;
  return { ...legacyComment(ctx, row), taskId: t.task.id };
}

/**
 * PUT /api/task/update-task-content: contentID names the control on one task; taskContentID,
 * key and contentType must name the same control (404 otherwise, 400 for a type mismatch);
 * value is checked as the v3 answer of that type (docs/legacy.md).
 */
export function updateContentLegacy(ctx: Ctx, body: unknown) {
  const b = bodyObject(body);
  const taskContentID = intProp(b, 'taskContentID');
  const contentID = intProp(b, 'contentID');
  const key = guidProp(b, 'key');
  const contentType = controlType(stringProp(b, 'contentType'), 'contentType');
  stringProp(b, 'name');
  const keys = Object.keys(b).map((k) => k.toLowerCase());
  if (!keys.includes('value')) throw bad('value is required (null clears the control).');
  const value = prop(b, 'value');
  const home = contentById(ctx.db, ctx.workspace.id, contentID);
  const fieldKey = fieldKeyOfTaskContent(ctx.db, ctx.workspace.id, taskContentID);
  if (!home || !fieldKey || home.field_key.toLowerCase() !== key.toLowerCase() || fieldKey.toLowerCase() !== key.toLowerCase()) {
    throw notFound('CONTROL_NOT_FOUND', `No control ${key} with taskContentID ${taskContentID} and contentID ${contentID} exists in this workspace.`);
  }
  const t = taskOfId(ctx, home.task_id);
  const f = (t.docTask?.fields ?? []).find((x) => x.id?.toLowerCase() === key.toLowerCase());
  if (!f) throw notFound('CONTROL_NOT_FOUND', `No control ${key} is on task ${t.task.id}.`);
  if (f.type !== contentType) throw bad(`contentType ${contentType} does not match the control, which is ${f.type}.`);
  if (!ANSWERABLE.has(f.type) || f.type === 'FileUpload') {
    throw bad(f.type === 'FileUpload' ? 'A File Upload control takes files, not a value: upload through POST /v3/checklists/{checklistKey}/tasks/{taskKey}/fields/{fieldKey}/files.' : `A ${f.type} control shows content and holds no value.`);
  }
  answerField(ctx, t, f.id!, value);
  const r = reload(ctx, t);
  return legacyContent(ctx, r, f, storedAnswers(ctx, r.task.id).get(f.id!.toLowerCase()), false);
}

export const taskLegacyRoutes = [
  defineLegacyRoute({ method: 'GET', path: '/api/task/details', handler: (ctx, r) => taskDetailsLegacy(ctx, r.query) }),
  defineLegacyRoute({ method: 'GET', path: '/api/task/assignments', handler: (ctx, r) => assignmentsLegacy(ctx, r.query) }),
  defineLegacyRoute({ method: 'PUT', path: '/api/task/assignments', v2: true, handler: (ctx, r) => replaceAssignmentsLegacy(ctx, r.body) }),
  defineLegacyRoute({ method: 'DELETE', path: '/api/task/assignments', v2: true, handler: (ctx, r) => clearAssignmentsLegacy(ctx, r.query) }),
  defineLegacyRoute({ method: 'POST', path: '/api/task/assign-by-name', v2: true, handler: (ctx, r) => assignByNameLegacy(ctx, r.body) }),
  defineLegacyRoute({ method: 'PUT', path: '/api/task/status', v2: true, handler: (ctx, r) => statusLegacy(ctx, r.body) }),
  defineLegacyRoute({ method: 'POST', path: '/api/task/comment', handler: (ctx, r) => commentLegacy(ctx, r.body) }),
  defineLegacyRoute({ method: 'PUT', path: '/api/task/update-task-content', handler: (ctx, r) => updateContentLegacy(ctx, r.body) }),
];
