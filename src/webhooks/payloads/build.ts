// Builds an event's body once, when the event is processed (spec v3 6 rule 1:
// one payload per event, posted to every matching subscription, v2 and v3 alike).
// A task_completed event whose task is no longer complete is dropped (6.3).
import type { Db } from '../../store/open';
import type { EventRow } from '../../rows/webhook-events';
import { EVENTS, isEventType, type EventSubjects, type EventType } from '../../domain/webhooks/events';
import { writeCompact, writeIndented, type JsonValue } from '../json';
import { Gone, checklistPayload, filePayload, taskPayload } from './family-a';
import { assignmentPayload, commentPayload, dataSetPayload, type RecordSnapshot } from './family-b';
import { getTask, type Urls } from './objects';

export type { EventRow };

/** The subject as the outbox stored it: the hook's, and a Data Set record event's snapshot (outbox.ts). */
type Stored<E extends EventType> = EventSubjects[E] & (E extends `data_set.record.${string}` ? { snapshot?: RecordSnapshot } : unknown);

type Builder<E extends EventType> = (db: Db, urls: Urls, subject: Stored<E>, e: EventRow & { event_type: E }) => JsonValue;

const recordPayload = <E extends 'data_set.record.created' | 'data_set.record.updated' | 'data_set.record.deleted'>(_db: Db, _urls: Urls, s: Stored<E>, e: EventRow & { event_type: E }): JsonValue => {
  if (!s.snapshot) throw new Gone('the Data Set record could not be read when the event happened');
  return dataSetPayload(e.event_type, s.snapshot);
};

/**
 * The payload builder of each event (spec v3 6.2, 6.4), keyed by event: an event added to
 * EVENTS needs its builder here, and a builder reads its event's subject as the hook gave it.
 */
const PAYLOADS: { [E in EventType]: Builder<E> } = {
  new_checklist: (db, urls, s) => checklistPayload(db, urls, s.checklistId),
  checklist_completed: (db, urls, s) => checklistPayload(db, urls, s.checklistId),
  task_completed: (db, urls, s) => taskPayload(db, urls, s.taskId),
  file_uploaded: (db, urls, s) => filePayload(db, urls, s),
  comment_created: (db, urls, s) => commentPayload(db, urls, s.commentId),
  task_assigned: (db, urls, s, e) => assignmentPayload(db, urls, s, e.actor_id, e.created_at),
  'data_set.record.created': recordPayload,
  'data_set.record.updated': recordPayload,
  'data_set.record.deleted': recordPayload,
};

const payloadOf = <E extends EventType>(db: Db, urls: Urls, e: EventRow & { event_type: E }): JsonValue =>
  // The subject is the JSON the outbox wrote for this event type (outbox.ts recordEvent).
  PAYLOADS[e.event_type](db, urls, (e.subject ? JSON.parse(e.subject) : {}) as Stored<E>, e);

export function payloadFor(db: Db, urls: Urls, e: EventRow): JsonValue {
  const type = e.event_type;
  if (!isEventType(type)) throw new Gone(`unknown event type ${e.event_type}`);
  return payloadOf(db, urls, { ...e, event_type: type });
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
