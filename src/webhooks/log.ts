// The delivery log as the control routes show it (docs/webhooks.md "Delivery log").
import type { Db } from '../store/open';
import { iso } from '../clock';
import { newGuid } from '../ids';
import { scopeOf } from '../domain/webhooks/subscriptions';
import { webhookById } from '../rows/webhooks';
import { deliveryById, deliveryByKey, eventById, insertDelivery, loggedDeliveries, loggedDelivery, loggedEvents, reopenEvent, type LoggedDelivery } from '../rows/webhook-events';
import type { DeliveryFilter } from '../public/types';

export type { DeliveryFilter };

/** How many rows a log page holds: 100 unless asked, 1 to 1,000. */
const limitOf = (limit: number | undefined) => Math.min(Math.max(limit ?? 100, 1), 1000);

export function listDeliveries(db: Db, f: DeliveryFilter) {
  return loggedDeliveries(db, f, limitOf(f.limit)).map((r) => deliveryView(db, r));
}

export function getDelivery(db: Db, key: string) {
  const r = loggedDelivery(db, key);
  return r ? deliveryView(db, r) : undefined;
}

function deliveryView(db: Db, r: LoggedDelivery) {
  const w = r.webhook_id === null ? undefined : webhookById(db, r.webhook_id);
  const replayOf = r.replay_of === null ? undefined : deliveryById(db, r.replay_of)?.key;
  return {
    id: r.key,
    status: r.status,
    workspace: r.ws_key,
    event: { id: r.e_key, type: r.e_type, state: r.e_state, createdDateTime: iso(r.e_created), dropReason: r.e_drop ?? undefined },
    subscription: w ? { id: w.key, api: w.api, eventType: w.event_type, scope: scopeOf(w), hasSecret: w.secret !== null } : undefined,
    targetUrl: r.target_url,
    attempts: r.attempts,
    nextAttemptDateTime: r.status === 'pending' ? iso(r.next_attempt_at) : undefined,
    lastResponseStatus: r.last_status ?? undefined,
    lastError: r.last_error ?? undefined,
    lastResponseBody: r.last_response ?? undefined,
    request: { method: 'POST', url: r.target_url, headers: r.headers ? (JSON.parse(r.headers) as Record<string, string>) : undefined, body: r.e_body ?? undefined },
    attemptLog: (JSON.parse(r.attempt_log) as { at: number; status: number | null; error: string | null; durationMs: number }[]).map((a) => ({
      dateTime: iso(a.at),
      responseStatus: a.status ?? undefined,
      error: a.error ?? undefined,
      durationMs: a.durationMs,
    })),
    replayOf,
    createdDateTime: iso(r.created_at),
    deliveredDateTime: iso(r.delivered_at),
  };
}

/** A new delivery of the same event (same body) to the same target, due now. */
export function replayDelivery(db: Db, key: string, now: number): string | undefined {
  const d = deliveryByKey(db, key);
  if (!d) return undefined;
  const e = eventById(db, d.event_id)!;
  const fresh = newGuid();
  db.transaction(() => {
    // A dropped event was never built: a replay builds it from the state as it is now.
    if (e.state === 'dropped') reopenEvent(db, e.id);
    insertDelivery(db, { key: fresh, event_id: d.event_id, webhook_id: d.webhook_id, target_url: d.target_url, next_attempt_at: now, replay_of: d.id, created_at: now });
  })();
  return fresh;
}

export function listEvents(db: Db, f: { workspace?: string; eventType?: string; limit?: number }) {
  return loggedEvents(db, f, limitOf(f.limit)).map((e) => ({
    id: e.key,
    type: e.event_type,
    workspace: e.ws_key,
    state: e.state,
    dropReason: e.drop_reason ?? undefined,
    subject: e.subject ? JSON.parse(e.subject) : undefined,
    body: e.body ?? undefined,
    deliveries: e.n,
    createdDateTime: iso(e.created_at),
    processedDateTime: iso(e.processed_at),
  }));
}
