// Family A payloads (spec v3 6, 6.1, 6.3): new_checklist and checklist_completed
// (checklist payload), task_completed (task payload), file_uploaded (file payload,
// designed: docs/webhooks.md). Each returns the value tree; json.ts writes the bytes.
import type { Db } from '../../store/open';
import { fileUrl } from '../../domain/urls';
import { fileInfoById } from '../../rows/files';
import { offsetTime, type JsonValue } from '../json';
import { fieldName } from './fields';
import {
  checklistContext,
  checklistSummary,
  getChecklist,
  getTask,
  NO_CHECKLIST,
  person,
  tags,
  taskEntry,
  taskUrl,
  templateObject,
  type ChecklistRow,
  type TaskContext,
  type TaskRow,
  type Urls,
} from './objects';

export class Gone extends Error {}

export function checklistPayload(db: Db, urls: Urls, checklistId: number): JsonValue {
  const c = getChecklist(db, checklistId);
  if (!c) throw new Gone(`checklist ${checklistId} no longer exists`);
  const tc = checklistContext(db, c);
  return {
    ...checklistSummary(db, urls, c),
    checklistIsArchived: c.is_archived === 1,
    template: templateObject(db, urls, c),
    tasks: tc.tasks.map((t) => taskEntry(db, urls, t, tc, 'checklist')),
  };
}

/** The checklist a task belongs to: its own, or the one a standalone task is attached to. */
export function checklistOfTask(db: Db, t: TaskRow): ChecklistRow | undefined {
  const id = t.checklist_id ?? t.attached_checklist_id;
  return id === null ? undefined : getChecklist(db, id);
}

function taskContext(db: Db, t: TaskRow, c: ChecklistRow | undefined): TaskContext {
  if (!c || t.checklist_id === null) return NO_CHECKLIST;
  return checklistContext(db, c);
}

export function taskPayload(db: Db, urls: Urls, taskId: number): JsonValue {
  const t = getTask(db, taskId);
  if (!t) throw new Gone(`task ${taskId} no longer exists`);
  const c = checklistOfTask(db, t);
  return {
    ...taskEntry(db, urls, t, taskContext(db, t, c), 'task'),
    taskUrl: taskUrl(urls, t, c),
    tags: tags(db, t, c?.key ?? null),
    // checklistEndDateTime is null even for the last task (6.3): completion is its own event.
    checklist: checklistSummary(db, urls, c, null),
    template: templateObject(db, urls, c),
  };
}

/** file_uploaded: the file, its field and task, then checklist and template as in the task payload (6.3; rest designed). */
export function filePayload(db: Db, urls: Urls, subject: { taskId: number; fieldKey: string; fileId: number }): JsonValue {
  const f = fileInfoById(db, subject.fileId);
  if (!f) throw new Gone(`file ${subject.fileId} no longer exists`);
  const t = getTask(db, subject.taskId);
  if (!t) throw new Gone(`task ${subject.taskId} no longer exists`);
  const c = checklistOfTask(db, t);
  const tc = taskContext(db, t, c);
  const defs = t.checklist_id !== null ? (tc.doc?.tasks.find((d) => d.id === t.key)?.fields ?? []) : [];
  const at = defs.findIndex((d) => d.id === subject.fieldKey);
  const by = person(db, f.created_by);
  return {
    fileId: f.id,
    fileName: f.name,
    fileContentType: f.content_type,
    fileUrl: fileUrl(urls, f.token),
    fileUploadedDateTime: offsetTime(f.created_at),
    fileUploadedByName: by.name,
    fileUploadedByEmail: by.email,
    fieldKey: subject.fieldKey,
    fieldName: at >= 0 ? fieldName(defs[at], at + 1) : null,
    taskId: t.id,
    taskKey: t.key,
    taskName: t.name,
    taskUrl: taskUrl(urls, t, c),
    checklist: checklistSummary(db, urls, c, null),
    template: templateObject(db, urls, c),
  };
}
