// Legacy tags (legacy spec 2, 4.3): list, create (the existing tag of the same name, any case,
// is returned instead of a duplicate), delete, and assignment to a checklist (type 1) or a task
// (type 3, parentKey = its checklist's key). The same tags and assignments as v3 (spec v3 4.1
// rule 5): a tag put on through one API is read through the other.
import type { Ctx } from '../../context';
import { newGuid } from '../../ids';
import { notFound } from '../../errors';
import { assertCanRead } from '../../domain/access/checklists';
import { addChecklistTags, removeChecklistTag } from '../../domain/checklists/tags';
import { findChecklist, type ChecklistRow } from '../../domain/checklist-lookup';
import { addTaskTags, removeTaskTag } from '../../domain/tasks/tags';
import { assertTaskReadable } from '../../domain/tasks/guard';
import { findChecklistTask, type TaskTarget } from '../../domain/tasks/target';
import { defineLegacyRoute } from '../define';
import { Reply } from '../../operations/define';
import { bad, bodyObject, guidProp, intProp, param, prop, requiredGuidParam } from '../params';
import { assignmentKeyOf, deleteTagRow, insertTag, tagByKey, tagRowByName, tagsOfWorkspace, type TagRow } from '../../rows/tags';

const MAX_TAG = 100;

const tagView = (t: TagRow) => ({ key: t.key, name: t.name });

export function listTagsLegacy(ctx: Ctx) {
  return tagsOfWorkspace(ctx.db, ctx.workspace.id).map(tagView);
}

export function createTagLegacy(ctx: Ctx, q: URLSearchParams) {
  const name = param(q, 'name');
  if (!name) throw bad('name is required.');
  if (name.length > MAX_TAG) throw bad(`name must be at most ${MAX_TAG} characters.`);
  const existing = tagRowByName(ctx.db, ctx.workspace.id, name);
  if (existing) return tagView(existing);
  const key = newGuid();
  insertTag(ctx.db, { key, workspaceId: ctx.workspace.id, name, now: ctx.now() });
  return { key, name };
}

const tagOfKey = (ctx: Ctx, key: string) => tagByKey(ctx.db, ctx.workspace.id, key);

/** Deletes the tag from everything that carries it; 200 whether or not it still existed (legacy spec 4.3 lists 200 and 401). */
export function deleteTagLegacy(ctx: Ctx, q: URLSearchParams) {
  const tag = tagOfKey(ctx, requiredGuidParam(q, 'tagKey'));
  if (tag) deleteTagRow(ctx.db, tag.id);
  return new Reply(200, undefined);
}

interface Assignment {
  tag: TagRow;
  type: 1 | 3;
  checklist: ChecklistRow;
  task?: TaskTarget;
}

/** Validates the body (400), then finds tag, checklist and task (404), then read access (403). */
function assignment(ctx: Ctx, body: unknown): Assignment {
  const b = bodyObject(body);
  const tagKey = guidProp(b, 'tagKey');
  const assignmentKey = guidProp(b, 'assignmentKey');
  const type = intProp(b, 'assignmentType');
  if (type !== 1 && type !== 3) throw bad('assignmentType must be 1 (checklist) or 3 (task).');
  const parent = prop(b, 'parentKey');
  let parentKey: string | undefined;
  if (type === 3) parentKey = guidProp(b, 'parentKey');
  else if (parent !== undefined && parent !== null && parent !== '') throw bad('parentKey must be null for a checklist (assignmentType 1).');
  const tag = tagOfKey(ctx, tagKey);
  if (!tag) throw notFound('TAG_NOT_FOUND', `No tag with key ${tagKey} exists in this workspace.`);
  if (type === 1) {
    const checklist = findChecklist(ctx, assignmentKey);
    assertCanRead(ctx, checklist);
    return { tag, type, checklist };
  }
  const task = findChecklistTask(ctx, parentKey!, assignmentKey);
  assertTaskReadable(ctx, task);
  return { tag, type, checklist: task.checklist!, task };
}

function assignmentView(ctx: Ctx, a: Assignment) {
  const key = assignmentKeyOf(ctx.db, a.tag.id, a.type === 1 ? 'checklist' : 'task', a.task ? a.task.task.id : a.checklist.id);
  return {
    key: key ?? null,
    tagKey: a.tag.key,
    tagName: a.tag.name,
    assignmentKey: a.task ? a.task.task.key : a.checklist.key,
    assignmentType: a.type,
    parentKey: a.task ? a.checklist.key : null,
  };
}

export function assignTagLegacy(ctx: Ctx, body: unknown) {
  const a = assignment(ctx, body);
  if (a.task) addTaskTags(ctx, a.task, [a.tag.name]);
  else addChecklistTags(ctx, a.checklist.key, [a.tag.name]);
  return assignmentView(ctx, a);
}

/** Takes the tag off; a tag goes with its last carrier (spec v3 4.1 rule 5), as in v3. 404 when it was not on. */
export function unassignTagLegacy(ctx: Ctx, body: unknown) {
  const a = assignment(ctx, body);
  const view = assignmentView(ctx, a);
  if (view.key === null) throw notFound('TAG_ASSIGNMENT_NOT_FOUND', `The tag ${a.tag.name} is not on that ${a.type === 1 ? 'checklist' : 'task'}.`);
  if (a.task) removeTaskTag(ctx, a.task, a.tag.name);
  else removeChecklistTag(ctx, a.checklist.key, a.tag.name);
  return view;
}

export const tagLegacyRoutes = [
  defineLegacyRoute({ method: 'GET', path: '/api/tag/tags', handler: (ctx) => listTagsLegacy(ctx) }),
  defineLegacyRoute({ method: 'POST', path: '/api/tag', handler: (ctx, r) => createTagLegacy(ctx, r.query) }),
  defineLegacyRoute({ method: 'DELETE', path: '/api/tag', handler: (ctx, r) => deleteTagLegacy(ctx, r.query) }),
  defineLegacyRoute({ method: 'POST', path: '/api/tag/assignment', handler: (ctx, r) => assignTagLegacy(ctx, r.body) }),
  defineLegacyRoute({ method: 'DELETE', path: '/api/tag/assignment', handler: (ctx, r) => unassignTagLegacy(ctx, r.body) }),
];
