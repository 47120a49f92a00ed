// Finding the task a route names (spec v3 4.3, 2.1): a checklist task by the pair
// (checklistKey, taskKey), a standalone task by its own key. Lookups come before any
// permission check (5.10): another workspace's task is 404, never 403.
import type { Ctx } from '../../context';
import { labelOrUnlabelled } from '../field-label';
import { notFound } from '../../errors';
import { checklistById, findChecklist, type ChecklistRow } from '../checklist-lookup';
import { versionDocument, type DocField, type DocTask, type TemplateDocument } from '../../rows/template-document';
import { checklistTaskByKey, standaloneTaskByKey, taskById, type TaskRow } from '../../rows/tasks';

/** The task a route acts on, with what its rules need. */
export interface TaskTarget {
  task: TaskRow;
  /** The checklist it is on (checklist task) or attached to (standalone); null for an unattached standalone task. */
  checklist: ChecklistRow | null;
  standalone: boolean;
  /** The template version document of its own checklist; null for a standalone task. */
  doc: TemplateDocument | null;
  docTask: DocTask | null;
}

/** The template version document a checklist runs. */
// Parsed once per template version and database state, and shared (callers only read it):
// parsing the stored document was ~2% of CPU on a task read, and evaluateChecklist's memo
// recognises the same document by identity.
export function checklistDocument(ctx: Pick<Ctx, 'db'>, checklist: Pick<ChecklistRow, 'template_id' | 'template_version'>): TemplateDocument {
  return versionDocument(ctx.db, checklist.template_id, checklist.template_version) ?? { name: '', tasks: [] };
}

export function docTaskOf(doc: TemplateDocument | null, taskKey: string): DocTask | null {
  return doc?.tasks.find((t) => t.id?.toLowerCase() === taskKey.toLowerCase()) ?? null;
}

const taskNotFound = (taskKey: string, where: string) => notFound('TASK_NOT_FOUND', `No task with key ${taskKey} exists ${where}.`);

/** A task of the checklist; a key of another checklist or of an attached standalone task is 404 TASK_NOT_FOUND (4.3). */
export function findChecklistTask(ctx: Ctx, checklistKey: string, taskKey: string): TaskTarget {
  const checklist = findChecklist(ctx, checklistKey);
  const task = checklistTaskByKey(ctx.db, checklist.id, taskKey);
  if (!task) throw taskNotFound(taskKey, 'on this checklist');
  return targetOf(ctx, task, checklist);
}

/** A standalone task of the workspace (attached or not), or 404 TASK_NOT_FOUND. */
export function findStandaloneTask(ctx: Ctx, taskKey: string): TaskTarget {
  const task = standaloneTaskByKey(ctx.db, ctx.workspace.id, taskKey);
  if (!task) throw taskNotFound(taskKey, 'as a standalone task in this workspace');
  return targetOf(ctx, task);
}

/**
 * The one builder of a task target, for a task row found any way (v3 keys, legacy ids, a snooze
 * reference): a checklist task with its checklist and version document, a standalone task with
 * the checklist it is attached to. `checklist`, when the caller holds it already, is that one.
 */
export function targetOf(ctx: Ctx, task: TaskRow, checklist?: ChecklistRow | null): TaskTarget {
  if (task.checklist_id !== null) {
    const own = checklist ?? checklistById(ctx, task.checklist_id)!;
    const doc = checklistDocument(ctx, own);
    return { task, checklist: own, standalone: false, doc, docTask: docTaskOf(doc, task.key) };
  }
  const attached = checklist !== undefined ? checklist : task.attached_checklist_id === null ? null : (checklistById(ctx, task.attached_checklist_id) ?? null);
  return { task, checklist: attached, standalone: true, doc: null, docTask: null };
}

/** Re-reads the task row after a write. */
export function reload(ctx: Ctx, t: TaskTarget): TaskTarget {
  return { ...t, task: taskById(ctx.db, t.task.id)! };
}

/** Content types that show something and take no answer (2.6 known names). */
export const CONTENT_TYPES = new Set(['Text', 'Image', 'Video', 'File', 'MailTo', 'Embed']);
export const isAnswerable = (f: DocField) => !CONTENT_TYPES.has(f.type);

/** The answerable fields of a task, in template order. */
export function answerableFields(t: Pick<TaskTarget, 'docTask'>): DocField[] {
  return (t.docTask?.fields ?? []).filter((f) => f.id && isAnswerable(f));
}

/** Field name: its label, or "Unlabelled <type> Content at Position <n>" (2.5, 6.2). */
export function fieldName(docTask: DocTask | null, f: DocField): string {
  return labelOrUnlabelled(f.label, f.type, (docTask?.fields ?? []).indexOf(f) + 1);
}
