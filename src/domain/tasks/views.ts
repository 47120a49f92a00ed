// The three task sizes (spec v3 2.4): summary (list), task (status routes), detail (get).
// Each is a superset of the previous; valueless properties are omitted, arrays always present.
import type { Ctx } from '../../context';
import { iso } from '../../clock';
import { compareText } from '../paging';
import { checklistReference } from '../checklist-lookup';
import { memberById, fullName, groupById, type MemberRow } from '../../rows/people';
import { fileUrl } from '../urls';
import { userRef, userRefOf } from '../users';
import type { DocField } from '../../rows/template-document';
import { EMPTY_STATE, evaluateChecklist, type ChecklistState } from './evaluate';
import { answerView, ARRAY_TYPES, tableColumns } from './field-values';
import { fieldFiles } from './files';
import type { TaskRow } from '../../rows/tasks';
import { commentsOfTask, type CommentRow } from '../../rows/comments';
import { attachmentById } from '../../rows/files';
import { tagsOf } from '../../rows/tags';
import { fieldValuesOfTask } from '../../rows/field-values';
import { assigneesOfTask } from '../../rows/task-assignees';
import { answerableFields, fieldName, type TaskTarget } from './target';
import { memoized } from '../../store/memo';

/** The evaluated state of the target's checklist (empty for standalone tasks). */
export function stateOf(ctx: Ctx, t: TaskTarget): ChecklistState {
  return t.doc && t.task.checklist_id !== null ? evaluateChecklist(ctx, t.task.checklist_id, t.doc) : EMPTY_STATE;
}

// A task's assignments are kept until their table is written (store/memo.ts): a status write
// changes none, and its answer and the task read after it show them. The rows are shared: callers
// only read them. (Its comments and answers were kept the same way; those memos won under 5% on
// every bench row and were removed: docs/performance.md "Memos: kept and removed".)
const assignmentRows = memoized({ name: 'task assignments', reads: ['task_assignees'] }, assigneesOfTask);
// Every status answer names who completed the task: the member's row is kept until the members
// table changes, a fresh reference made from it each time.
const memberRow = memoized({ name: 'member row', reads: ['members'] }, (db, id: number): MemberRow | null => memberById(db, id) ?? null);

/** User reference of a member who has not left (2.4: completedBy absent if the member left). */
function presentUser(ctx: Ctx, id: number | null) {
  if (id === null) return undefined;
  const m = memberRow(ctx.db, id);
  return m && !m.is_removed ? userRefOf(m) : undefined;
}

export function taskSummary(ctx: Ctx, task: TaskRow, state: ChecklistState) {
  const heading = task.is_heading === 1;
  const k = task.key.toLowerCase();
  const complete = task.status === 'Complete';
  const na = task.status === 'NotApplicable';
  return {
    key: task.key,
    name: task.name,
    order: task.position,
    isHeading: heading,
    status: heading ? undefined : (task.status ?? 'Incomplete'),
    isComplete: !heading && complete,
    isNotApplicable: !heading && na,
    isCurrentlyHalted: !heading && state.haltedTasks.has(k),
    isCurrentlyHidden: state.hiddenTasks.has(k),
    isAssignedExclusively: task.is_assigned_exclusively === 1,
    dueDateTime: heading ? undefined : iso(task.due_at),
    // Not applicable stamps a completion time too (spec v3 3); completedBy names only who completed.
    completedDateTime: complete || na ? iso(task.completed_at ?? task.not_applicable_at) : undefined,
    completedBy: complete ? presentUser(ctx, task.completed_by) : undefined,
    notApplicableDateTime: na ? iso(task.not_applicable_at) : undefined,
    notApplicableBy: na ? presentUser(ctx, task.not_applicable_by) : undefined,
  };
}

/** Assignees: groups first, then by name (2.4). */
export function assigneesOf(ctx: Ctx, taskId: number) {
  const out = assignmentRows(ctx.db, taskId).map((r) => {
    if (r.assignee_type === 'Group') {
      const g = groupById(ctx.db, r.assignee_id);
      return { id: r.assignee_id, type: 'Group' as const, name: g?.name };
    }
    const m = memberById(ctx.db, r.assignee_id);
    return { id: r.assignee_id, type: 'TeamMember' as const, name: m ? fullName(m) : undefined };
  });
  return out.sort(
    (a, b) => (a.type === b.type ? 0 : a.type === 'Group' ? -1 : 1) || compareText(a.name ?? '', b.name ?? '') || a.id - b.id,
  );
}

export type { CommentRow };

export function commentView(ctx: Ctx, c: CommentRow) {
  const file = c.file_id === null ? undefined : attachmentById(ctx.db, c.file_id);
  return {
    id: c.id,
    text: c.text,
    html: c.html ?? undefined,
    createdBy: userRef(ctx.db, c.author_id),
    createdDateTime: iso(c.created_at),
    attachment: file ? { name: file.name, contentType: file.content_type, url: fileUrl(ctx, file.token) } : undefined,
    mentions: JSON.parse(c.mentions) as { id: number; type: string; name?: string }[],
  };
}

/** Comments, oldest first (2.4). */
export function commentsOf(ctx: Ctx, taskId: number) {
  return commentsOfTask(ctx.db, taskId).map((c) => commentView(ctx, c));
}

/** One field object (2.4): key, name, type, isRequired, value; Table adds columns. */
export function fieldView(ctx: Ctx, t: TaskTarget, f: DocField, stored: unknown) {
  let value: unknown;
  if (f.type === 'FileUpload') value = fieldFiles(ctx, t.task.id, f.id!);
  else value = answerView(ctx, f, stored);
  if (value === undefined && ARRAY_TYPES.has(f.type)) value = [];
  const view: { key: string; name: string; type: string; isRequired: boolean; value: unknown; columns?: { key: string | undefined; name: string }[] } = {
    key: f.id!,
    name: fieldName(t.docTask, f),
    type: f.type,
    isRequired: f.isRequired === true,
    value,
  };
  if (f.type === 'Table') view.columns = tableColumns(f).map((c) => ({ key: c.id, name: c.name }));
  return view;
}

/** Stored answers of one task by field key (lower case). */
export function storedAnswers(ctx: Ctx, taskId: number): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const r of fieldValuesOfTask(ctx.db, taskId)) {
    out.set(r.field_key.toLowerCase(), r.value === null ? null : JSON.parse(r.value));
  }
  return out;
}

/** Current field values, omitting fields a condition hides (2.4). */
export function fieldsOf(ctx: Ctx, t: TaskTarget, state: ChecklistState) {
  const answers = storedAnswers(ctx, t.task.id);
  return answerableFields(t)
    .filter((f) => !state.hiddenFields.has(f.id!.toLowerCase()))
    .map((f) => fieldView(ctx, t, f, answers.get(f.id!.toLowerCase())));
}

// The larger sizes add their properties to the smaller one's fresh object (the same keys in the
// same order as spreading it into a literal): measured on Node 20, a literal spreading an object
// and adding properties after it cost microseconds per task (V8 builds a new shape each time).
export function taskView(ctx: Ctx, t: TaskTarget, state = stateOf(ctx, t)) {
  return Object.assign(taskSummary(ctx, t.task, state), {
    assignees: assigneesOf(ctx, t.task.id),
    fields: fieldsOf(ctx, t, state),
    comments: commentsOf(ctx, t.task.id),
  });
}

/** The task's own tags by name, in name order (2.4). */
export function taskTags(ctx: Ctx, taskId: number): string[] {
  return tagsOf(ctx.db, 'task', taskId)
    .map((r) => r.name)
    .sort(compareText);
}

export function taskDetail(ctx: Ctx, t: TaskTarget, state = stateOf(ctx, t)) {
  return Object.assign(taskView(ctx, t, state), {
    checklist: t.checklist ? checklistReference(ctx, t.checklist) : undefined,
    tags: taskTags(ctx, t.task.id),
  });
}
