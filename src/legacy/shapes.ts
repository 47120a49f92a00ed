// The legacy objects the legacy spec leaves "not shown" (legacy spec 2): checklist, task,
// control, assignee, comment, file, tag assignment. Designed from the legacy conventions
// (integer ids beside GUID keys, assignee type 1/2, every property always sent, null when
// there is no value) and written down in docs/legacy.md.
import type { Ctx } from '../context';
import { iso } from '../clock';
import { checklistUrl } from '../domain/urls';
import { checklistTemplateRef, type ChecklistRow } from '../domain/checklist-lookup';
import { memberById, fullName } from '../rows/people';
import { tagsOf } from '../rows/tags';
import { commentsOfTask, type CommentRow as StoredCommentRow } from '../rows/comments';
import { fieldFiles } from '../domain/tasks/files';
import { answerView } from '../domain/tasks/field-values';
import { fieldName, type TaskTarget } from '../domain/tasks/target';
import { assigneesOf, stateOf, storedAnswers } from '../domain/tasks/views';
import { ANSWERABLE } from '../domain/template-format/document-schema';
import type { DocField } from '../rows/template-document';
import { contentId, taskContentId } from './content-ids';

/** Assignee type integers (legacy spec 2): 1 team member, 2 group. */
export const ASSIGNEE_TYPE = { TeamMember: 1, Group: 2 } as const;

/** The legacy checklist object (docs/legacy.md). */
export function legacyChecklist(ctx: Ctx, row: ChecklistRow) {
  const t = checklistTemplateRef(ctx, row);
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    status: row.status,
    url: checklistUrl(ctx, row.key),
    templateKey: t.key,
    templateName: t.name,
    templateVersion: row.template_version,
    createdDateTime: iso(row.created_at),
  };
}

const member = (ctx: Ctx, id: number | null) => (id === null ? undefined : memberById(ctx.db, id));

/** A person as legacy ids them: the member id, 0 for the workspace's anonymous member (as modifiedByUserID takes it). */
export function userIdAndName(ctx: Ctx, id: number | null): { id: number | null; name: string | null } {
  const m = member(ctx, id);
  if (!m) return { id: null, name: null };
  if (m.is_anonymous) return { id: 0, name: 'Anonymous' };
  return { id: m.id, name: fullName(m) ?? m.email ?? null };
}

export function legacyFile(ctx: Ctx, f: ReturnType<typeof fieldFiles>[number]) {
  return {
    fileId: f.id,
    fileName: f.name,
    contentType: f.contentType,
    size: f.size,
    url: f.url,
    uploadedDateTime: f.createdDateTime ?? null,
    uploadedByName: f.createdBy?.name ?? null,
  };
}

/** The checklist and template objects of a task or file answer; all null for a standalone task on no checklist (legacy spec 4.1). */
export function checklistAndTemplate(ctx: Ctx, c: ChecklistRow | null) {
  const t = c ? checklistTemplateRef(ctx, c) : null;
  return {
    checklist: {
      checklistId: c?.id ?? null,
      checklistKey: c?.key ?? null,
      checklistName: c?.name ?? null,
      checklistStatus: c?.status ?? null,
      checklistUrl: c ? checklistUrl(ctx, c.key) : null,
    },
    template: {
      templateKey: t?.key ?? null,
      templateName: t?.name ?? null,
      templateVersion: c?.template_version ?? null,
    },
  };
}

/** One control of a task: the integer ids, the GUID key, the type, the label and the current value. */
export function legacyContent(ctx: Ctx, t: TaskTarget, f: DocField, stored: unknown, hidden: boolean) {
  let value: unknown = null;
  if (f.type === 'FileUpload') value = fieldFiles(ctx, t.task.id, f.id!).map((x) => legacyFile(ctx, x));
  else if (ANSWERABLE.has(f.type)) value = answerView(ctx, f, stored) ?? null;
  return {
    taskContentID: taskContentId(ctx.db, ctx.workspace.id, f.id!),
    contentID: contentId(ctx.db, t.task.id, f.id!),
    key: f.id!,
    contentType: f.type,
    name: fieldName(t.docTask, f),
    isRequired: f.isRequired === true,
    isInput: ANSWERABLE.has(f.type),
    isHidden: hidden,
    value,
  };
}

export function legacyContents(ctx: Ctx, t: TaskTarget, hiddenFields: Set<string>) {
  const answers = storedAnswers(ctx, t.task.id);
  return (t.docTask?.fields ?? []).filter((f) => f.id).map((f) => legacyContent(ctx, t, f, answers.get(f.id!.toLowerCase()), hiddenFields.has(f.id!.toLowerCase())));
}

export function legacyAssignees(ctx: Ctx, taskId: number) {
  return assigneesOf(ctx, taskId).map((a) => ({ assigneeId: a.id, assigneeName: a.name ?? null, assigneeType: ASSIGNEE_TYPE[a.type] }));
}

/** What a legacy comment shows of a comment row. */
type CommentRow = Pick<StoredCommentRow, 'id' | 'author_id' | 'html' | 'text' | 'created_at'>;

export function legacyComment(ctx: Ctx, c: CommentRow) {
  const by = userIdAndName(ctx, c.author_id);
  return {
    commentId: c.id,
    commentHtml: c.html,
    commentText: c.text,
    createdByUserID: by.id,
    createdByName: by.name,
    createdDateTime: iso(c.created_at),
  };
}

export function legacyComments(ctx: Ctx, taskId: number) {
  return commentsOfTask(ctx.db, taskId).map((c) => legacyComment(ctx, c));
}

export function legacyTaskTags(ctx: Ctx, taskId: number) {
  return tagsOf(ctx.db, 'task', taskId);
}

/** The full legacy task: status, dates, checklist and template, controls with values, assignees, comments, tags. */
export function legacyTask(ctx: Ctx, t: TaskTarget) {
  const state = stateOf(ctx, t);
  const task = t.task;
  const heading = task.is_heading === 1;
  const done = task.status === 'Complete' || task.status === 'NotApplicable';
  const by = userIdAndName(ctx, task.status === 'Complete' ? task.completed_by : task.status === 'NotApplicable' ? task.not_applicable_by : null);
  return {
    id: task.id,
    key: task.key,
    name: task.name,
    description: task.description ?? null,
    status: heading ? null : (task.status ?? 'Incomplete'),
    isHeading: heading,
    isStandalone: t.standalone,
    position: task.position,
    isAssignedExclusively: task.is_assigned_exclusively === 1,
    isHidden: state.hiddenTasks.has(task.key.toLowerCase()),
    dueDateTime: iso(task.due_at) ?? null,
    completedDateTime: done ? (iso(task.completed_at ?? task.not_applicable_at) ?? null) : null,
    completedByUserID: by.id,
    completedByName: by.name,
    ...checklistAndTemplate(ctx, t.checklist),
    contents: legacyContents(ctx, t, state.hiddenFields),
    assignees: legacyAssignees(ctx, task.id),
    comments: legacyComments(ctx, task.id),
    tags: legacyTaskTags(ctx, task.id),
  };
}
