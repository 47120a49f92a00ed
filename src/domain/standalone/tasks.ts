// Standalone tasks at /v3/tasks/{taskKey}: raise, read, change, delete, attach, detach
// (spec v3 2.1, 4.3 intro, 5.4, 5.5, 5.9, 5.10). Decisions where the spec is silent are in
// docs/checklists.md "Standalone tasks".
import { deleteTask, insertStandaloneTask, setStandaloneDue, setTaskAttachedTo, setTaskDescription, setTaskName } from '../../rows/tasks';
import { addTaskAssignee } from '../../rows/task-assignees';
import type { Ctx } from '../../context';
import { conflict, forbidden, validationError } from '../../errors';
import { newGuid } from '../../ids';
import { actorName, formatInZone, recordActivity } from '../activity';
import {
  assertCanRead,
  assertCanReadStandalone,
  canRunTemplate,
  canRunTemplateAsAnonymous,
  keptOutByExclusive,
} from '../access/checklists';
import { findChecklist, type ChecklistRow } from '../checklist-lookup';
import { hasRight } from '../checklists/rights';
import { applyTags, removeTag } from '../tags/apply';
import { resolveNamingList, type NamingEntry } from '../tasks/naming';
import { checklistDocument, findStandaloneTask, reload, type TaskTarget } from '../tasks/target';
import { standaloneDetail } from './view';
import { taskTags } from '../tasks/views';

/** Read rule (5.4): attached, as its checklist; unattached, Administrators, the workspace key, its raiser and assignees. */
export function assertCanReadStandaloneTask(ctx: Ctx, t: TaskTarget): void {
  if (t.checklist) assertCanRead(ctx, t.checklist);
  else assertCanReadStandalone(ctx, t.task);
}

/** 5.9: the workspace key, acting through the anonymous member, changes only the standalone tasks it raised. */
function assertRaisedByWorkspace(ctx: Ctx, t: TaskTarget): void {
  if (ctx.actor.kind === 'workspace' && t.task.raised_by !== ctx.actor.member.id) {
    throw forbidden('This API key acts as the workspace and may change or delete only the standalone tasks it raised. Use a key that acts as a member.');
  }
}

function assertTaskCreator(ctx: Ctx, what: string): void {
  if (!hasRight(ctx, 'Task.Creator')) {
    throw forbidden(`You may not ${what} standalone tasks: you do not have the Task.Creator right. An Administrator can give it to you.`);
  }
}

/** Assigning and dating are done by a person (5.8 row 2): the workspace key is refused. */
function assertPersonMayAssignOrDate(ctx: Ctx, what: string): void {
  if (ctx.actor.kind === 'workspace') {
    throw forbidden(`${what} is done by a person: this API key acts as the workspace. Use a key that acts as an Administrator or a Member, or leave ${what.toLowerCase()} out.`);
  }
}

export function getStandaloneTask(ctx: Ctx, taskKey: string) {
  const t = findStandaloneTask(ctx, taskKey);
  assertCanReadStandaloneTask(ctx, t);
  return standaloneDetail(ctx, t);
}

export interface CreateStandaloneInput {
  name: string;
  description?: string;
  dueDateTime?: number;
  assignees?: NamingEntry[];
  isAssignedExclusively?: boolean;
  tags?: string[];
  checklistKey?: string;
}

export function createStandaloneTask(ctx: Ctx, input: CreateStandaloneInput) {
  // Body first (400, naming rules of 2.4), then lookups (404), then permissions (403): 5.10.
  const assignees = resolveNamingList(ctx, input.assignees ?? [], 'assignees');
  const checklist = input.checklistKey !== undefined ? findChecklist(ctx, input.checklistKey) : null;
  assertTaskCreator(ctx, 'raise');
  if (assignees.length) assertPersonMayAssignOrDate(ctx, 'Assigning');
  if (input.dueDateTime !== undefined) assertPersonMayAssignOrDate(ctx, 'Setting a due date');
  if (checklist) assertMayAttach(ctx, checklist);

  const now = ctx.now();
  const key = newGuid();
  const id = insertStandaloneTask(ctx.db, {
    key,
    workspace_id: ctx.workspace.id,
    attached_checklist_id: checklist?.id ?? null,
    name: input.name.trim(),
    description: input.description ?? null,
    due_at: input.dueDateTime ?? null,
    due_is_manual: input.dueDateTime !== undefined ? 1 : 0,
    is_assigned_exclusively: input.isAssignedExclusively ? 1 : 0,
    raised_by: ctx.actor.member.id,
    created_at: now,
  });
  recordActivity(ctx, { checklistId: checklist?.id, taskId: id, action: 'task.created', text: `${actorName(ctx)} raised the task "${input.name.trim()}".` });
  for (const a of assignees) {
    addTaskAssignee(ctx.db, id, a.type, a.id);
    ctx.hooks.event?.(ctx, 'task_assigned', { taskId: id, assigneeType: a.type, assigneeId: a.id });
  }
  if (assignees.length) recordActivity(ctx, { checklistId: checklist?.id, taskId: id, action: 'task.assigned', text: `${actorName(ctx)} assigned the task.`, data: { assignees } });
  if (input.tags?.length) applyTags(ctx.db, ctx.workspace.id, 'task', id, input.tags, now);
  if (checklist) recordActivity(ctx, { checklistId: checklist.id, taskId: id, action: 'task.attached', text: `${actorName(ctx)} attached the task to the checklist "${checklist.name}".` });
  return standaloneDetail(ctx, findStandaloneTask(ctx, key));
}

export interface PatchStandaloneInput {
  taskKey: string;
  name?: string | null;
  description?: string | null;
  dueDateTime?: number | null;
}

/** PATCH (4.1 rule 8): name (not clearable), description and dueDateTime (null clears). */
export function patchStandaloneTask(ctx: Ctx, input: PatchStandaloneInput) {
  if (input.name === null) throw validationError('name cannot be cleared: a task always has a name.', 'name');
  const t = findStandaloneTask(ctx, input.taskKey);
  assertCanReadStandaloneTask(ctx, t);
  assertTaskCreator(ctx, 'change');
  assertRaisedByWorkspace(ctx, t);
  if (input.dueDateTime !== undefined) {
    assertPersonMayAssignOrDate(ctx, 'Setting a due date');
    if (keptOutByExclusive(ctx, t.task)) {
      throw forbidden('This task is assigned exclusively, and you are not one of its assignees: only its assignees and Administrators may re-date it. An Administrator can assign you to the task or turn off its exclusive assignment.');
    }
  }
  const cid = t.task.attached_checklist_id;
  const who = actorName(ctx);
  if (input.name !== undefined && input.name.trim() !== t.task.name) {
    setTaskName(ctx.db, t.task.id, input.name.trim());
    recordActivity(ctx, { checklistId: cid, taskId: t.task.id, action: 'task.renamed', text: `${who} renamed the task from "${t.task.name}" to "${input.name.trim()}".` });
  }
  if (input.description !== undefined && input.description !== t.task.description) {
    setTaskDescription(ctx.db, t.task.id, input.description);
    recordActivity(ctx, { checklistId: cid, taskId: t.task.id, action: 'task.descriptionChanged', text: `${who} changed the task's description.` });
  }
  if (input.dueDateTime !== undefined && input.dueDateTime !== t.task.due_at) {
    setStandaloneDue(ctx.db, t.task.id, input.dueDateTime);
    recordActivity(ctx, {
      checklistId: cid,
      taskId: t.task.id,
      action: input.dueDateTime === null ? 'task.dueDateCleared' : 'task.dueDateSet',
      text: input.dueDateTime === null ? `${who} cleared the due date.` : `${who} set the due date to ${formatInZone(ctx, input.dueDateTime)}.`,
    });
  }
  return standaloneDetail(ctx, reload(ctx, t));
}

/** DELETE: permanent; its comments, files, answers and snoozes go with it, and its tags are taken off. */
export function deleteStandaloneTask(ctx: Ctx, taskKey: string): void {
  const t = findStandaloneTask(ctx, taskKey);
  assertCanReadStandaloneTask(ctx, t);
  assertTaskCreator(ctx, 'delete');
  assertRaisedByWorkspace(ctx, t);
  for (const tag of taskTags(ctx, t.task.id)) removeTag(ctx.db, ctx.workspace.id, 'task', t.task.id, tag);
  deleteTask(ctx.db, t.task.id);
}

/** Task.Attacher (5.5), run permission on the checklist's template (5.5, 5.9), and the template's setting (5.10). */
function assertMayAttach(ctx: Ctx, checklist: ChecklistRow): void {
  if (!hasRight(ctx, 'Task.Attacher')) {
    throw forbidden('You may not attach tasks to checklists: you do not have the Task.Attacher right. An Administrator can give it to you.');
  }
  assertCanRead(ctx, checklist);
  if (ctx.actor.kind === 'workspace') {
    if (!canRunTemplateAsAnonymous(ctx, checklist.template_id)) {
      throw forbidden(
        "This API key acts as the workspace, through its anonymous member, and no template permission grants that member run access on the checklist's template. " +
          'An Administrator can give the anonymous member a Run and View permission on the template, or you can use a key that acts as a member.',
      );
    }
  } else if (!canRunTemplate(ctx, checklist.template_id)) {
    throw forbidden(
      "You may not attach tasks to this checklist: you have no Run and View or Run and View Assigned permission on its template. An Administrator can give you one.",
    );
  }
  // Settings apply to every key, Administrators included (5.10).
  if (checklistDocument(ctx, checklist).allowAttachedTasks === false) {
    throw conflict("The checklist's template does not allow attached tasks (Tasks Can Be Attached is off). An Administrator can turn it on in a new template version.");
  }
}

/** PUT /v3/tasks/{taskKey}/attachment {checklistKey}: attaches, or moves to another checklist; repeating is harmless. */
export function attachStandaloneTask(ctx: Ctx, taskKey: string, checklistKey: string) {
  const t = findStandaloneTask(ctx, taskKey);
  const checklist = findChecklist(ctx, checklistKey);
  assertCanReadStandaloneTask(ctx, t);
  assertRaisedByWorkspace(ctx, t);
  assertMayAttach(ctx, checklist);
  if (t.task.attached_checklist_id !== checklist.id) {
    setTaskAttachedTo(ctx.db, t.task.id, checklist.id);
    recordActivity(ctx, { checklistId: checklist.id, taskId: t.task.id, action: 'task.attached', text: `${actorName(ctx)} attached the task to the checklist "${checklist.name}".` });
  }
  return standaloneDetail(ctx, findStandaloneTask(ctx, taskKey));
}

/** DELETE /v3/tasks/{taskKey}/attachment: Task.Attacher; detaching an unattached task is harmless. */
export function detachStandaloneTask(ctx: Ctx, taskKey: string) {
  const t = findStandaloneTask(ctx, taskKey);
  assertCanReadStandaloneTask(ctx, t);
  if (!hasRight(ctx, 'Task.Attacher')) {
    throw forbidden('You may not detach tasks from checklists: you do not have the Task.Attacher right. An Administrator can give it to you.');
  }
  assertRaisedByWorkspace(ctx, t);
  if (t.checklist) {
    setTaskAttachedTo(ctx.db, t.task.id, null);
    recordActivity(ctx, { checklistId: t.checklist.id, taskId: t.task.id, action: 'task.detached', text: `${actorName(ctx)} detached the task from the checklist "${t.checklist.name}".` });
  }
  return standaloneDetail(ctx, findStandaloneTask(ctx, taskKey));
}
