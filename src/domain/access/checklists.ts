// Who may read and write checklists and their tasks (spec v3 5.3, 5.4, 5.8, 5.9, 5.10).
// Decisions where the spec is silent are recorded in docs/tasks.md ("Who may do what").
//
// - Template permission rules name AllUsers, a TeamMember or a Group. AllUsers covers
//   every member of the workspace, the anonymous member included: that is how a
//   template permission "grants the anonymous member run access" (5.9).
// - The two Assigned levels apply only where the member has at least one task of the
//   checklist assigned directly or through a group; one such task opens the whole
//   checklist (2.5).
// - A member assigned to a task on the checklist reads it (5.4) and may complete,
//   uncomplete and mark tasks not applicable (5.8 row 1) whatever the rules say.
// - Running a template (creating a checklist) is allowed by RunAndView and
//   RunAndViewAssigned (both levels say "Run"); ViewOnly and ViewAssignedOnly never run.
import type { Ctx } from '../../context';
import { forbidden } from '../../errors';
import { EXCLUSIVE_MESSAGE } from '../refusal-texts';
import { declareMemo, memoOn } from '../../store/memo';
import {
  assignedOnChecklist,
  checklistsAssignedTo,
  groupIdsOfMember,
  readableChecklistsCondition,
  templateRulesNaming,
  templatesOpenTo,
} from '../../rows/checklist-access';
import { memberIdsAssignedTo } from '../../rows/task-assignees';

export type ChecklistPermission = 'RunAndView' | 'ViewOnly' | 'RunAndViewAssigned' | 'ViewAssignedOnly';

/** What access needs of a checklist row (the checklists area's row satisfies it). */
export interface ChecklistLike {
  id: number;
  template_id: number;
}

export interface ChecklistAccess {
  canRead: boolean;
  /** Complete, uncomplete, mark or clear not applicable (5.8 row 1). */
  canRun: boolean;
  /** The strongest template permission that applies to the actor on this checklist; absent when none. */
  permission?: ChecklistPermission;
  /** Something in the checklist is assigned to the actor directly or through a group. */
  isAssigned: boolean;
  /** Why: 'admin', 'workspace', 'permission', 'assigned' or 'none'. */
  via: 'admin' | 'workspace' | 'permission' | 'assigned' | 'none';
}

const RANK: Record<ChecklistPermission, number> = { RunAndView: 4, RunAndViewAssigned: 3, ViewOnly: 2, ViewAssignedOnly: 1 };
const runs = (p: ChecklistPermission) => p === 'RunAndView' || p === 'RunAndViewAssigned';
const needsAssignment = (p: ChecklistPermission) => p === 'RunAndViewAssigned' || p === 'ViewAssignedOnly';

/** Ids of the groups the member belongs to. */
export function memberGroupIds(ctx: Ctx, memberId = ctx.actor.member.id): number[] {
  return groupIdsOfMember(ctx.db, memberId);
}

/** Template permission rules naming this member: AllUsers, the member, or one of their groups. */
export function templateRulesFor(ctx: Ctx, templateId: number, memberId = ctx.actor.member.id): ChecklistPermission[] {
  return templateRulesNaming<ChecklistPermission>(ctx.db, templateId, memberId);
}

/** Whether any task of the checklist (its own tasks and attached standalone tasks) is assigned to the member directly or through a group. */
export function isAssignedOnChecklist(ctx: Ctx, checklistId: number, memberId = ctx.actor.member.id): boolean {
  return assignedOnChecklist(ctx.db, checklistId, memberId);
}

/**
 * The read rule of 5.4 for many checklists at once (lists and search): one query for the
 * templates whose rules open every checklist, one for the checklists where something is
 * assigned to the member. Same answers as checklistAccess(...).canRead, row by row.
 */
export function readableChecklists(ctx: Ctx): (checklist: ChecklistLike) => boolean {
  if (ctx.actor.isAdmin || ctx.actor.kind === 'workspace') return () => true;
  const memberId = ctx.actor.member.id;
  const openTemplates = new Set(templatesOpenTo(ctx.db, ctx.workspace.id, memberId));
  const assigned = new Set(checklistsAssignedTo(ctx.db, memberId));
  // Assigned levels (RunAndViewAssigned, ViewAssignedOnly) open a checklist only where
  // something is assigned, which already opens it on its own.
  return (c) => openTemplates.has(c.template_id) || assigned.has(c.id);
}

/**
 * The same read rule as readableChecklists, as an SQL condition on `checklists` (for lists
 * paged in SQL); undefined when the actor reads everything.
 */
export function readableChecklistsSql(ctx: Ctx): { sql: string; args: number[] } | undefined {
  if (ctx.actor.isAdmin || ctx.actor.kind === 'workspace') return undefined;
  return readableChecklistsCondition(ctx.actor.member.id);
}

// What a member's access to a checklist rests on (something assigned; the template's rules
// naming them) is read once per state of the tables it rests on (store/memo.ts): the task detail read spent ~6% of its CPU on
// these two statements, and a task's status write leaves them standing.
interface AccessFacts {
  assigned: boolean;
  rules: readonly ChecklistPermission[];
}
const FACTS = declareMemo({ name: 'checklist access facts', reads: [{ table: 'template_permissions' }, { table: 'group_members' }, { table: 'task_assignees' }, { table: 'tasks', columns: ['id', 'checklist_id', 'attached_checklist_id'] }] });

function accessFacts(ctx: Ctx, checklist: ChecklistLike, memberId: number): AccessFacts {
  return memoOn<string, AccessFacts>(ctx.db, FACTS).get(`${checklist.id}/${checklist.template_id}/${memberId}`, () => ({
    assigned: isAssignedOnChecklist(ctx, checklist.id, memberId),
    rules: templateRulesFor(ctx, checklist.template_id, memberId),
  }));
}

/** What the acting key may do with a checklist (5.4, 5.8 row 1, 5.9). */
export function checklistAccess(ctx: Ctx, checklist: ChecklistLike): ChecklistAccess {
  const memberId = ctx.actor.member.id;
  const { assigned, rules } = accessFacts(ctx, checklist, memberId);
  const applicable = rules.filter((p) => !needsAssignment(p) || assigned);
  const permission = applicable.sort((a, b) => RANK[b] - RANK[a])[0];
  const ruleRuns = applicable.some(runs);

  if (ctx.actor.isAdmin) return { canRead: true, canRun: true, permission, isAssigned: assigned, via: 'admin' };
  if (ctx.actor.kind === 'workspace') {
    // Reads everything; runs only where a rule grants the anonymous member run access (5.9).
    return { canRead: true, canRun: ruleRuns, permission, isAssigned: assigned, via: 'workspace' };
  }
  if (permission) return { canRead: true, canRun: ruleRuns || assigned, permission, isAssigned: assigned, via: 'permission' };
  if (assigned) return { canRead: true, canRun: true, isAssigned: true, via: 'assigned' };
  return { canRead: false, canRun: false, isAssigned: false, via: 'none' };
}

/** 403 unless the actor may read the checklist (5.4). Returns the access for further checks. */
export function assertCanRead(ctx: Ctx, checklist: ChecklistLike): ChecklistAccess {
  const access = checklistAccess(ctx, checklist);
  if (!access.canRead) {
    throw forbidden(
      'You may not see this checklist: you have no Run and View or View But Not Run permission on its template, and nothing in it is assigned to you or to a group you are in. ' +
        'An Administrator can give you a checklist permission on the template, or assign you a task on the checklist.',
    );
  }
  return access;
}

/** 403 unless the actor may complete, uncomplete or mark tasks not applicable (5.8 row 1, 5.9). */
export function assertCanRun(ctx: Ctx, checklist: ChecklistLike): ChecklistAccess {
  const access = assertCanRead(ctx, checklist);
  if (!access.canRun) {
    throw forbidden(
      ctx.actor.kind === 'workspace'
        ? "This API key acts as the workspace, through its anonymous member, and no template permission grants that member run access on this checklist's template. " +
            'An Administrator can give the anonymous member a Run and View permission on the template, or you can use a key that acts as a member.'
        : "You may view this checklist but not change its tasks: your permission on its template does not include running, and no task on the checklist is assigned to you. " +
            'An Administrator can give you a Run and View permission on the template, or assign you a task on the checklist.',
    );
  }
  return access;
}

/**
 * Whether the actor may run checklists from a template (create a checklist; attach a standalone task).
 * Administrators and the workspace key (5.9: "create checklists from any template") always may;
 * a member needs a RunAndView or RunAndViewAssigned rule naming them, a group of theirs, or AllUsers.
 */
export function canRunTemplate(ctx: Ctx, templateId: number): boolean {
  if (ctx.actor.isAdmin || ctx.actor.kind === 'workspace') return true;
  return templateRulesFor(ctx, templateId).some(runs);
}

/** Like canRunTemplate, for attach (5.9): the workspace key only with a rule granting the anonymous member run access. */
export function canRunTemplateAsAnonymous(ctx: Ctx, templateId: number): boolean {
  if (ctx.actor.isAdmin) return true;
  return templateRulesFor(ctx, templateId).some(runs);
}

export function assertCanRunTemplate(ctx: Ctx, templateId: number): void {
  if (!canRunTemplate(ctx, templateId)) {
    throw forbidden(
      'You may not run checklists from this template: no Run and View or Run and View Assigned permission on it names you, a group you are in, or all users. ' +
        'An Administrator can give you a Run and View permission on the template.',
    );
  }
}

// ── task-level rules (5.8 rows 2 and 7, 2.4 isAssignedExclusively) ────────────────

export interface TaskLike {
  id: number;
  is_assigned_exclusively: number;
}

/** Members covered by the task's assignees (directly or through a group). */
export function assignedMemberIds(ctx: Ctx, taskId: number): ReadonlySet<number> {
  return new Set(memberIdsAssignedTo(ctx.db, taskId));
}

/**
 * Whether an exclusive assignment keeps the actor out. No effect while nobody is assigned,
 * and an assignment that covers nobody (only empty groups) keeps nobody out (5.8).
 * Administrators are never kept out.
 */
export function keptOutByExclusive(ctx: Ctx, task: TaskLike): boolean {
  if (!task.is_assigned_exclusively || ctx.actor.isAdmin) return false;
  const people = assignedMemberIds(ctx, task.id);
  if (people.size === 0) return false;
  return !people.has(ctx.actor.member.id);
}


/**
 * Complete / uncomplete / NA: run permission on the checklist (5.8 row 1); completing also needs
 * the exclusive assignment (2.4: "Only assignees (and Administrators) may complete, reassign or
 * re-date"), which names no other status write (docs/decisions.md "Exclusive assignment").
 */
export function assertCanChangeStatus(ctx: Ctx, checklist: ChecklistLike | null, task: TaskLike, completing: boolean): void {
  if (checklist) assertCanRun(ctx, checklist);
  if (completing && keptOutByExclusive(ctx, task)) throw forbidden(EXCLUSIVE_MESSAGE);
}

/** Assign, unassign, set or clear a due date (5.8 row 2): any Administrator or Member; exclusive limits; workspace key refused. */
export function assertCanAssignOrDate(ctx: Ctx, task: TaskLike): void {
  if (ctx.actor.kind === 'workspace') {
    throw forbidden(
      'Assigning and setting due dates is done by a person: this API key acts as the workspace. Use a key that acts as an Administrator or a Member.',
    );
  }
  if (ctx.actor.member.role === 'Guest') throw forbidden('Guests may not assign tasks or set due dates. An Administrator can make you a Member.');
  if (keptOutByExclusive(ctx, task)) throw forbidden(EXCLUSIVE_MESSAGE);
}

/** Answer a field, add or remove a file, write a table (5.8 last row): workspace key refused, exclusive limits (409 for halted is the caller's). */
export function assertCanAnswer(ctx: Ctx, task: TaskLike): void {
  if (ctx.actor.kind === 'workspace') {
    throw forbidden('Answering fields is done by a person: this API key acts as the workspace. Use a key that acts as an Administrator or a Member.');
  }
  if (keptOutByExclusive(ctx, task)) throw forbidden(EXCLUSIVE_MESSAGE);
}

// ── standalone tasks (not attached): decisions in docs/tasks.md ──────────────────

export interface StandaloneLike extends TaskLike {
  raised_by: number | null;
  attached_checklist_id: number | null;
}

/**
 * An unattached standalone task is read by Administrators, the workspace key, the member who
 * raised it and its assignees (directly or through a group); an attached one as its checklist (5.4).
 */
export function canReadStandalone(ctx: Ctx, task: StandaloneLike): boolean {
  if (ctx.actor.isAdmin || ctx.actor.kind === 'workspace') return true;
  if (task.raised_by === ctx.actor.member.id) return true;
  return assignedMemberIds(ctx, task.id).has(ctx.actor.member.id);
}

export function assertCanReadStandalone(ctx: Ctx, task: StandaloneLike): void {
  if (!canReadStandalone(ctx, task)) {
    throw forbidden('You may not see this task: you did not raise it and it is not assigned to you or a group you are in. An Administrator can assign it to you.');
  }
}

/** Status writes on an unattached standalone task: Administrators, its raiser and its assignees; the workspace key only on tasks it raised (5.9); completing also needs the exclusive assignment (2.4). */
export function assertCanRunStandalone(ctx: Ctx, task: StandaloneLike, completing: boolean): void {
  assertCanReadStandalone(ctx, task);
  if (ctx.actor.kind === 'workspace' && task.raised_by !== ctx.actor.member.id) {
    throw forbidden('This API key acts as the workspace and may change only the standalone tasks it raised. Use a key that acts as a member.');
  }
  if (completing && keptOutByExclusive(ctx, task)) throw forbidden(EXCLUSIVE_MESSAGE);
}
