// The outbox (docs/webhooks.md): the event hook runs inside the write transaction
// that caused the event, so the event row and one delivery row per matching
// subscription commit (or roll back) with the change. Nothing here touches the
// network; the sender (src/webhooks/sender.ts) picks the rows up afterwards.
import type { Ctx } from '../../context';
import type { Db } from '../../store/open';
import { newGuid } from '../../ids';
import { isEventType, type EventSubjects, type EventType } from './events';
import { factsFor, matchingSubscriptions } from './matching';
import { dataSetById } from '../../rows/data-sets';
import { recordById } from '../../rows/data-set-records';
import { insertDelivery, insertEvent } from '../../rows/webhook-events';

export interface Recorded {
  eventId: number;
  deliveries: number;
}

/**
 * Data Set record events carry a snapshot taken now: a deleted record is gone
 * by the time the event is processed. Subject contract (docs/webhooks.md):
 * created {recordId}; updated {recordId, before: {fieldKey: value}} (or
 * `changes`); deleted {recordId} called before the row is deleted, or with
 * {recordKey, dataSetId} after.
 */
function dataSetSnapshot(db: Db, eventType: string, subject: Record<string, unknown>) {
  const rec =
    typeof subject.recordId === 'number'
      ? recordById(db, subject.recordId)
      : undefined;
  const dsId = rec?.data_set_id ?? (typeof subject.dataSetId === 'number' ? subject.dataSetId : undefined);
  const ds = dsId === undefined ? undefined : dataSetById(db, dsId);
  const recordKey = rec?.key ?? (typeof subject.recordKey === 'string' ? subject.recordKey : undefined);
  if (!ds || !recordKey) return undefined;
  const values = rec ? (JSON.parse(rec.vals) as Record<string, unknown>) : {};
  const snapshot: Record<string, unknown> = { dataSetId: ds.key, dataSetName: ds.name, recordId: recordKey };
  if (eventType === 'data_set.record.created') snapshot.values = values;
  if (eventType === 'data_set.record.updated') {
    if (subject.changes && typeof subject.changes === 'object') snapshot.changes = subject.changes;
    else {
      const before = (subject.before && typeof subject.before === 'object' ? subject.before : {}) as Record<string, unknown>;
      const changes: Record<string, { before: unknown; after: unknown }> = {};
      for (const k of new Set([...Object.keys(before), ...Object.keys(values)])) {
        const b = before[k] ?? null;
        const a = values[k] ?? null;
        if (JSON.stringify(b) !== JSON.stringify(a)) changes[k] = { before: b, after: a };
      }
      snapshot.changes = changes;
    }
  }
  return snapshot;
}

/** Writes the event and its deliveries. `firstAttemptAt` is when the sender may process it. */
export function recordEvent<E extends EventType>(
  ctx: Pick<Ctx, 'db' | 'workspace' | 'actor'> & { now(): number },
  eventType: E,
  subject: EventSubjects[E],
  firstAttemptAt: number,
): Recorded | undefined {
  if (!isEventType(eventType)) return undefined;
  const db = ctx.db;
  const now = ctx.now();
  const facts = factsFor(db, eventType, subject);
  const stored: Record<string, unknown> = { ...subject };
  let state = 'pending';
  let dropReason: string | null = null;
  if (eventType.startsWith('data_set.record.')) {
    const snap = dataSetSnapshot(db, eventType, subject);
    if (snap) stored.snapshot = snap;
    else {
      state = 'dropped';
      dropReason = 'the Data Set record named by the event does not exist';
    }
  }
  if (!facts) {
    state = 'dropped';
    dropReason = 'the event names nothing in the workspace';
  }
  const subs = state === 'pending' && facts ? matchingSubscriptions(db, ctx.workspace.id, eventType, facts) : [];
  if (state === 'pending' && subs.length === 0) state = 'unmatched';
  const eventId = insertEvent(db, { key: newGuid(), workspace_id: ctx.workspace.id, event_type: eventType, subject: JSON.stringify(stored), actor_id: ctx.actor.member.id, state, drop_reason: dropReason, created_at: now });
  for (const w of subs) insertDelivery(db, { key: newGuid(), event_id: eventId, webhook_id: w.id, target_url: w.target_url, next_attempt_at: firstAttemptAt, replay_of: null, created_at: now });
  return { eventId, deliveries: subs.length };
}
