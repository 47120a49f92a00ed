// The delivery log as the control routes show it (docs/webhooks.md "Delivery log").
import type { Db } from '../store/open';
import { iso } from '../clock';
import { newGuid } from '../ids';
import type { DeliveryRow } from './sender';
import type { EventRow } from './payloads/build';
import type { WebhookRow } from '../domain/webhooks/subscriptions';
import { scopeOf } from '../domain/webhooks/subscriptions';

export interface DeliveryFilter {
  status?: string;
  eventType?: string;
  subscription?: string;
  workspace?: string;
  event?: string;
  limit?: number;
}

type Joined = DeliveryRow & { e_key: string; e_type: string; e_state: string; e_body: string | null; e_created: number; e_drop: string | null; ws_key: string };

const SELECT = `SELECT d.*, e.key AS e_key, e.event_type AS e_type, e.state AS e_state, e.body AS e_body, e.created_at AS e_created, e.drop_reason AS e_drop, ws.key AS ws_key
  FROM deliveries d JOIN events e ON e.id = d.event_id JOIN workspaces ws ON ws.id = e.workspace_id`;

export function listDeliveries(db: Db, f: DeliveryFilter) {
  const where: string[] = [];
  const args: unknown[] = [];
  if (f.status) { where.push('d.status = ?'); args.push(f.status); }
  if (f.eventType) { where.push('e.event_type = ?'); args.push(f.eventType); }
  if (f.event) { where.push('e.key = ?'); args.push(f.event); }
  if (f.workspace) { where.push('ws.key = ?'); args.push(f.workspace); }
  if (f.subscription) { where.push('d.webhook_id = (SELECT id FROM webhooks WHERE key = ?)'); args.push(f.subscription); }
  const sql = `${SELECT} ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY d.id DESC LIMIT ?`;
  return db
    .prepare(sql)
    .all(...args, Math.min(Math.max(f.limit ?? 100, 1), 1000))
    .map((r) => deliveryView(db, r as Joined));
}

export function getDelivery(db: Db, key: string) {
  const r = db.prepare(`${SELECT} WHERE d.key = ?`).get(key) as Joined | undefined;
  return r ? deliveryView(db, r) : undefined;
}

function deliveryView(db: Db, r: Joined) {
  const w = r.webhook_id === null ? undefined : db.prepare<[number], WebhookRow>('SELECT * FROM webhooks WHERE id = ?').get(r.webhook_id);
  const replayOf = r.replay_of === null ? undefined : db.prepare<[number], { key: string }>('SELECT key FROM deliveries WHERE id = ?').get(r.replay_of)?.key;
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
  const d = db.prepare<[string], DeliveryRow>('SELECT * FROM deliveries WHERE key = ?').get(key);
  if (!d) return undefined;
  const e = db.prepare<[number], EventRow>('SELECT * FROM events WHERE id = ?').get(d.event_id)!;
  const fresh = newGuid();
  db.transaction(() => {
    // A dropped event was never built: a replay builds it from the state as it is now.
    if (e.state === 'dropped') db.prepare("UPDATE events SET state = 'pending', drop_reason = NULL WHERE id = ?").run(e.id);
    db.prepare('INSERT INTO deliveries (key, event_id, webhook_id, target_url, next_attempt_at, replay_of, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      fresh,
      d.event_id,
      d.webhook_id,
      d.target_url,
      now,
      d.id,
      now,
    );
  })();
  return fresh;
}

export function listEvents(db: Db, f: { workspace?: string; eventType?: string; limit?: number }) {
  const where: string[] = [];
  const args: unknown[] = [];
  if (f.workspace) { where.push('ws.key = ?'); args.push(f.workspace); }
  if (f.eventType) { where.push('e.event_type = ?'); args.push(f.eventType); }
  const rows = db
    .prepare(
      `SELECT e.*, ws.key AS ws_key, (SELECT COUNT(*) FROM deliveries d WHERE d.event_id = e.id) AS n FROM events e JOIN workspaces ws ON ws.id = e.workspace_id
        ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY e.id DESC LIMIT ?`,
    )
    .all(...args, Math.min(Math.max(f.limit ?? 100, 1), 1000)) as (EventRow & { ws_key: string; n: number })[];
  return rows.map((e) => ({
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
