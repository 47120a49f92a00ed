// Family B payloads (spec v3 6 rule 3, 6.3): one line, `eventType` first, nulls
// sent; timestamps as in family A (`+00:00`), since rule 6 says payloads do not follow v3
// conventions, "Z timestamps" among them. comment_created and task_assigned are "not shown" in the spec; their
// bodies are designed here and documented in docs/webhooks.md. Data Set bodies
// follow 6.3 exactly and are snapshotted when the event happens (outbox.ts).
import type { Db } from '../../store/open';
import { fileUrl } from '../../domain/urls';
import { fullName, groupById, memberById } from '../../rows/people';
import { templateById } from '../../rows/templates';
import { commentById } from '../../rows/comments';
import { attachmentById } from '../../rows/files';
import { offsetTime, type JsonValue } from '../json';
import { Gone, checklistOfTask } from './family-a';
import { getTask, person, taskUrl, type ChecklistRow, type TaskRow, type Urls } from './objects';

function taskAndChecklist(urls: Urls, db: Db, t: TaskRow, c: ChecklistRow | undefined): Record<string, JsonValue> {
  const tpl = c ? templateById(db, c.template_id) : undefined;
  return {
    taskId: t.id,
    taskKey: t.key,
    taskName: t.name,
    taskUrl: taskUrl(urls, t, c),
    isStandalone: t.checklist_id === null,
    checklistKey: c?.key ?? null,
    checklistName: c?.name ?? null,
    templateKey: tpl?.key ?? null,
  };
}


export function commentPayload(db: Db, urls: Urls, commentId: number): JsonValue {
  const cm = commentById(db, commentId);
  if (!cm) throw new Gone(`comment ${commentId} no longer exists`);
  const t = getTask(db, cm.task_id);
  if (!t) throw new Gone(`task ${cm.task_id} no longer exists`);
  const by = person(db, cm.author_id);
  const file = cm.file_id === null ? undefined : attachmentById(db, cm.file_id);
  let mentions: { type?: string; id?: number; name?: string }[] = [];
  try {
    mentions = JSON.parse(cm.mentions);
  } catch {
    mentions = [];
  }
  return {
    eventType: 'comment_created',
    commentId: cm.id,
    commentText: cm.text,
    commentHtml: cm.html,
    commentDateTime: offsetTime(cm.created_at),
    createdByName: by.name,
    createdByEmail: by.email,
    attachment: file ? { name: file.name, contentType: file.content_type, url: fileUrl(urls, file.token) } : null,
    mentions: mentions.map((m) => ({ assigneeId: m.id ?? null, assigneeType: m.type ?? null, assigneeName: m.name ?? null })),
    ...taskAndChecklist(urls, db, t, checklistOfTask(db, t)),
  };
}

export function assignmentPayload(
  db: Db,
  urls: Urls,
  subject: { taskId: number; assigneeType: string; assigneeId: number },
  actorId: number | null,
  at: number,
): JsonValue {
  const t = getTask(db, subject.taskId);
  if (!t) throw new Gone(`task ${subject.taskId} no longer exists`);
  let name: string | null = null;
  let email: string | null = null;
  if (subject.assigneeType === 'Group') {
    name = groupById(db, subject.assigneeId)?.name ?? null;
  } else {
    const m = memberById(db, subject.assigneeId);
    name = m ? (fullName(m) ?? null) : null;
    email = m && !m.is_removed ? m.email : null;
  }
  const by = person(db, actorId);
  return {
    eventType: 'task_assigned',
    assigneeId: subject.assigneeId,
    assigneeType: subject.assigneeType,
    assigneeName: name,
    assigneeEmail: email,
    assignedDateTime: offsetTime(at),
    assignedByName: by.name,
    assignedByEmail: by.email,
    ...taskAndChecklist(urls, db, t, checklistOfTask(db, t)),
    taskDueDateTime: offsetTime(t.due_at),
  };
}

/** Data Set record snapshot taken inside the write transaction (outbox.ts). */
export interface RecordSnapshot {
  dataSetId: string;
  dataSetName: string;
  recordId: string;
  values?: Record<string, unknown>;
  changes?: Record<string, { before: unknown; after: unknown }>;
}

export function dataSetPayload(eventType: string, s: RecordSnapshot): JsonValue {
  const base: Record<string, JsonValue> = { eventType, dataSetId: s.dataSetId, dataSetName: s.dataSetName, recordId: s.recordId };
  if (eventType === 'data_set.record.created') base.values = (s.values ?? {}) as JsonValue;
  if (eventType === 'data_set.record.updated') base.changes = (s.changes ?? {}) as JsonValue;
  return base;
}
