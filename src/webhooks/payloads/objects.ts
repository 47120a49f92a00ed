// Shared payload objects of spec v3 6.1 (family A): template object, checklist
// summary, task entry, assignee, comment, tag. Property order is the order of
// the spec's tables; valueless properties are null, never left out.
import type { Db } from '../../store/open';
import type { DocField, TemplateDocument } from '../../rows/template-document';
import { versionDocument } from '../../rows/template-document';
import { checklistTaskUrl, checklistUrl, myWorkUrl, shareUrl, templateUrl } from '../../domain/urls';
import { memberById, displayName, fullName, groupById, type MemberRow } from '../../rows/people';
import { checklistById } from '../../rows/checklists';
import { taskById, tasksOfChecklist } from '../../rows/tasks';
import { templateById, templateVersion as versionOfTemplate } from '../../rows/templates';
import { assigneesOfTask } from '../../rows/task-assignees';
import { commentsOfTask } from '../../rows/comments';
import { tagAssignmentsOfTask } from '../../rows/tags';
import { fieldValuesOfTask } from '../../rows/field-values';
import { compareText } from '../../domain/paging';
import { offsetTime, type JsonValue } from '../json';
import { payloadFields, type DateMode } from './fields';
import { EMPTY_STATE, checklistState, isHalted, isHidden, type ChecklistState } from './task-state';
import type { ChecklistRow } from '../../domain/checklist-lookup';
import type { TaskRow } from '../../rows/tasks';

// The domain's row types, one definition: payloads read the same rows the API does.
export type { ChecklistRow, TaskRow };

export interface Urls {
  appUrl: string;
}

/** Who a schedule-started checklist is created by (6.1): fixed display name and support address. */
export const SCHEDULER = { name: 'Scheduler', email: 'support@workflow-service.invalid' };



export const getChecklist = (db: Db, id: number): ChecklistRow | undefined => checklistById(db, id);
export const getTask = (db: Db, id: number): TaskRow | undefined => taskById(db, id);

function member(db: Db, id: number | null | undefined): MemberRow | undefined {
  if (id === null || id === undefined) return undefined;
  return memberById(db, id);
}

/** Name and email of a member for `...ByName`/`...ByEmail`; a member who left keeps the name and loses the email. */
export function person(db: Db, id: number | null | undefined): { name: string | null; email: string | null } {
  const m = member(db, id);
  if (!m) return { name: null, email: null };
  return { name: displayName(m), email: m.is_removed ? null : m.email };
}

function templateVersion(db: Db, templateId: number, version: number) {
  const t = templateById(db, templateId);
  const v = versionOfTemplate(db, templateId, version);
  return t && v ? { t, v } : undefined;
}

/** Template object (6.1). `undefined` checklist: the empty form of a standalone task not attached. */
export function templateObject(db: Db, urls: Urls, c: ChecklistRow | undefined): JsonValue {
  const tv = c && templateVersion(db, c.template_id, c.template_version);
  if (!c || !tv) {
    return { templateId: 0, templateKey: null, templateName: null, templateUrl: null, templateDescription: null, templateVersion: 0, templateCreatedDateTime: null };
  }
  return {
    templateId: tv.t.id,
    templateKey: tv.t.key,
    templateName: tv.v.name,
    templateUrl: templateUrl(urls, tv.t.key),
    templateDescription: tv.v.description,
    templateVersion: c.template_version,
    templateCreatedDateTime: offsetTime(tv.v.created_at),
  };
}

/** The first eleven properties of the checklist payload (6.1): the checklist summary. */
export function checklistSummary(db: Db, urls: Urls, c: ChecklistRow | undefined, endOverride?: null): Record<string, JsonValue> {
  if (!c) {
    return {
      checklistId: 0,
      checklistKey: null,
      checklistName: null,
      checklistUrl: null,
      checklistScheduledDateTime: null,
      checklistStartDateTime: null,
      checklistEndDateTime: null,
      checklistCreatedByName: null,
      checklistCreatedByEmail: null,
      checklistIsShared: false,
      checklistSharedUrl: null,
    };
  }
  const by = c.schedule_id !== null ? SCHEDULER : person(db, c.created_by);
  return {
    checklistId: c.id,
    checklistKey: c.key,
    checklistName: c.name,
    checklistUrl: checklistUrl(urls, c.key),
    checklistScheduledDateTime: offsetTime(c.scheduled_at),
    checklistStartDateTime: offsetTime(c.started_at),
    checklistEndDateTime: endOverride === null ? null : offsetTime(c.completed_at),
    checklistCreatedByName: by.name,
    checklistCreatedByEmail: by.email,
    checklistIsShared: c.share_token !== null,
    checklistSharedUrl: c.share_token !== null ? shareUrl(urls, c.share_token) : null,
  };
}

/** Assignees (6.1), groups first, then by name (as v3 2.4 orders them). */
export function assignees(db: Db, taskId: number): JsonValue[] {
  const rows = assigneesOfTask(db, taskId);
  const named = rows.map((r) => {
    if (r.assignee_type === 'Group') {
      const g = groupById(db, r.assignee_id);
      return { id: r.assignee_id, type: r.assignee_type, name: g?.name ?? null };
    }
    const m = member(db, r.assignee_id);
    return { id: r.assignee_id, type: r.assignee_type, name: m ? (fullName(m) ?? null) : null, sortName: m ? displayName(m) : '' };
  });
  const key = (a: { name: string | null; sortName?: string }) => a.name ?? a.sortName ?? '';
  named.sort((a, b) => (a.type === b.type ? compareText(key(a), key(b)) || a.id - b.id : a.type === 'Group' ? -1 : 1));
  return named.map((a) => ({ assigneeId: a.id, assigneeType: a.type, assigneeName: a.name }));
}

export function comments(db: Db, taskId: number): JsonValue[] {
  return commentsOfTask(db, taskId).map((c) => ({ commentID: c.id, commentHtml: c.html, commentDateTime: offsetTime(c.created_at) }));
}

/** The task's own tags by name (6.1 Tag); parentKey is the checklist key, null for a standalone task. */
export function tags(db: Db, task: TaskRow, checklistKey: string | null): JsonValue[] {
  return tagAssignmentsOfTask(db, task.id)
    .sort((a, b) => compareText(a.name, b.name))
    .map((t) => ({ tagKey: t.tag_key, tagName: t.name, assignmentKey: t.a_key, assignmentType: 'Task', parentKey: task.checklist_id === null ? null : checklistKey }));
}

export function fieldValues(db: Db, taskId: number): Map<string, unknown> {
  const m = new Map<string, unknown>();
  for (const r of fieldValuesOfTask(db, taskId)) {
    try {
      m.set(r.field_key, r.value === null ? null : JSON.parse(r.value));
    } catch {
      m.set(r.field_key, r.value);
    }
  }
  return m;
}

export function documentOf(db: Db, c: ChecklistRow): TemplateDocument | undefined {
  return versionDocument(db, c.template_id, c.template_version);
}

export interface TaskContext {
  /** Halted and hidden flags, evaluated by the tasks area (task-state.ts). */
  state: ChecklistState;
  doc?: TemplateDocument;
}

/** A task context for a task without a checklist of its own (standalone). */
export const NO_CHECKLIST: TaskContext = { state: EMPTY_STATE };

/** Flags and document of a checklist's tasks, computed once per payload. */
export function checklistContext(db: Db, c: ChecklistRow): TaskContext & { tasks: TaskRow[] } {
  const tasks = tasksOfChecklist(db, c.id);
  const doc = documentOf(db, c);
  return { tasks, doc, state: checklistState(db, c.id, doc) };
}

/** One task's properties shared by the checklist payload's entries and the task payload (6.1). */
export function taskEntry(db: Db, urls: Urls, t: TaskRow, tc: TaskContext, mode: DateMode): Record<string, JsonValue> {
  const done = t.status === 'Complete' ? { at: t.completed_at, by: t.completed_by } : t.status === 'NotApplicable' ? { at: t.not_applicable_at, by: t.not_applicable_by } : undefined;
  const by = done ? person(db, done.by) : { name: null, email: null };
  const defs: DocField[] = t.checklist_id !== null ? (tc.doc?.tasks.find((d) => d.id === t.key)?.fields ?? []) : [];
  return {
    taskId: t.id,
    taskKey: t.key,
    taskName: t.name,
    taskIsHeading: t.is_heading === 1,
    taskIsCurrentlyHalted: isHalted(tc.state, t),
    taskIsCurrentlyHidden: isHidden(tc.state, t),
    taskDueDateTime: t.is_heading ? null : offsetTime(t.due_at),
    taskCompletedDateTime: offsetTime(done?.at),
    taskCompletedByName: by.name,
    taskCompletedByEmail: by.email,
    assignees: t.is_heading ? [] : assignees(db, t.id),
    fields: payloadFields({ db, appUrl: urls.appUrl, taskId: t.id, values: fieldValues(db, t.id) }, defs, mode),
    comments: t.is_heading ? [] : comments(db, t.id),
  };
}

/** Where a task lives in the app: its place on the checklist, or the Tasks grid for a standalone task not attached (6.1). */
export function taskUrl(urls: Urls, t: TaskRow, c: ChecklistRow | undefined): string {
  return c ? checklistTaskUrl(urls, c.key, t.key) : myWorkUrl(urls);
}
