// Builds an event's body once, when the event is processed (spec v3 6 rule 1:
// one payload per event, posted to every matching subscription, v2 and v3 alike).
// A task_completed event whose task is no longer complete is dropped (6.3).
import type { Db } from '../../store/open';
import type { EventRow } from '../../rows/webhook-events';
import { EVENTS, isEventType } from '../../domain/webhooks/events';
import { writeCompact, writeIndented, type JsonValue } from '../json';
import { Gone, checklistPayload, filePayload, taskPayload } from './family-a';
import { assignmentPayload, commentPayload, dataSetPayload, type RecordSnapshot } from './family-b';
import { getTask, type Urls } from './objects';

export type { EventRow };

/* eslint-disable @typescript-eslint/no-explicit-any -- payloads are built from stored JSON documents (template, field values) read as they were written */
export function payloadFor(db: Db, urls: Urls, e: EventRow): JsonValue {
  const s = (e.subject ? JSON.parse(e.subject) : {}) as any;
  switch (e.event_type) {
    case 'new_checklist':
    case 'checklist_completed':
      return checklistPayload(db, urls, s.checklistId);
    case 'task_completed':
      return taskPayload(db, urls, s.taskId);
    case 'file_uploaded':
      return filePayload(db, urls, s);
    case 'comment_created':
      return commentPayload(db, urls, s.commentId);
    case 'task_assigned':
      return assignmentPayload(db, urls, s, e.actor_id, e.created_at);
    default:
      if (e.event_type.startsWith('data_set.record.')) {
        if (!s.snapshot) throw new Gone('the Data Set record could not be read when the event happened');
        return dataSetPayload(e.event_type, s.snapshot as RecordSnapshot);
      }
      throw new Gone(`unknown event type ${e.event_type}`);
  }
}

export type Built = { body: string } | { drop: string };

export function buildEvent(db: Db, urls: Urls, e: EventRow): Built {
  if (!isEventType(e.event_type)) return { drop: `unknown event type ${e.event_type}` };
  if (e.event_type === 'task_completed') {
    const s = JSON.parse(e.subject ?? '{}') as { taskId: number };
    const t = getTask(db, s.taskId);
    if (!t || t.status !== 'Complete') return { drop: 'the task is no longer complete' };
  }
  try {
    const v = payloadFor(db, urls, e);
    return { body: EVENTS[e.event_type].family === 'A' ? writeIndented(v) : writeCompact(v) };
  } catch (err) {
    if (err instanceof Gone) return { drop: err.message };
    throw err;
  }
}
