// The webhook outbox (schema.sql `events`, `deliveries`): one event row per thing that happened,
// one delivery per matching subscription (and per replay). The delivery log is a read model
// over both and the workspace.
import type { Db } from '../store/open';
import { insertOf, type InsertOf, type RowOf } from '../store/columns';
import { deliveriesTable, eventsTable } from '../store/tables/webhooks';

/** An outbox event row as stored (store/tables/webhooks.ts). */
export type EventRow = RowOf<typeof eventsTable.columns>;

/** A delivery row as stored (store/tables/webhooks.ts). */
export type DeliveryRow = RowOf<typeof deliveriesTable.columns>;

const EVENT_INSERT = insertOf(eventsTable);
const DELIVERY_INSERT = insertOf(deliveriesTable);

export function insertEvent(db: Db, e: InsertOf<typeof eventsTable.columns>): number {
  return Number(db.prepare(EVENT_INSERT.sql).run(EVENT_INSERT.values(e)).lastInsertRowid);
}

export const eventById = (db: Db, id: number): EventRow | undefined => db.prepare<[number], EventRow>('SELECT * FROM events WHERE id = ?').get(id);

export const markEventDropped = (db: Db, id: number, reason: string, at: number): void =>
  void db.prepare("UPDATE events SET state = 'dropped', drop_reason = ?, processed_at = ? WHERE id = ?").run(reason, at, id);

export const markEventBuilt = (db: Db, id: number, body: string, at: number): void => void db.prepare("UPDATE events SET state = 'built', body = ?, processed_at = ? WHERE id = ?").run(body, at, id);

/** A dropped event goes back to pending, to be built again (a replay). */
export const reopenEvent = (db: Db, id: number): void => void db.prepare("UPDATE events SET state = 'pending', drop_reason = NULL WHERE id = ?").run(id);

export function insertDelivery(db: Db, d: InsertOf<typeof deliveriesTable.columns>): void {
  db.prepare(DELIVERY_INSERT.sql).run(DELIVERY_INSERT.values(d));
}

export const deliveryById = (db: Db, id: number): DeliveryRow | undefined => db.prepare<[number], DeliveryRow>('SELECT * FROM deliveries WHERE id = ?').get(id);

export const deliveryByKey = (db: Db, key: string): DeliveryRow | undefined => db.prepare<[string], DeliveryRow>('SELECT * FROM deliveries WHERE key = ?').get(key);

/** Due deliveries' ids and targets, oldest due first (the sender groups them by target, docs/webhooks.md "Fair delivery"). */
export const dueDeliveryIds = (db: Db, now: number, limit: number): { id: number; target_url: string }[] =>
  db
    .prepare<[number, number], { id: number; target_url: string }>("SELECT id, target_url FROM deliveries WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?")
    .all(now, limit);

/** The event's pending deliveries will not be sent: its body could not be built. */
export const dropPendingDeliveries = (db: Db, eventId: number, reason: string): void =>
  void db.prepare("UPDATE deliveries SET status = 'dropped', last_error = ? WHERE event_id = ? AND status = 'pending'").run(reason, eventId);

/** The subscription is gone: nothing more is sent for it. */
export const cancelPendingDeliveries = (db: Db, webhookId: number, at: number): void =>
  void db.prepare("UPDATE deliveries SET status = 'cancelled', last_error = 'subscription deleted', next_attempt_at = ? WHERE webhook_id = ? AND status = 'pending'").run(at, webhookId);

/** One attempt's outcome; delivered_at is set when the status becomes delivered. */
export function recordAttempt(
  db: Db,
  id: number,
  a: { status: string; attempts: number; next: number; lastStatus: number | null; error: string | null; response: string | null; headers: string; log: string; now: number },
): void {
  db.prepare(
    `UPDATE deliveries SET status = ?, attempts = ?, next_attempt_at = ?, last_status = ?, last_error = ?, last_response = ?, headers = ?, attempt_log = ?,
                delivered_at = CASE WHEN ? = 'delivered' THEN ? ELSE delivered_at END WHERE id = ?`,
  ).run(a.status, a.attempts, a.next, a.lastStatus, a.error, a.response, a.headers, a.log, a.status, a.now, id);
}

export type LoggedDelivery = DeliveryRow & { e_key: string; e_type: string; e_state: string; e_body: string | null; e_created: number; e_drop: string | null; ws_key: string };

const LOG = `SELECT d.*, e.key AS e_key, e.event_type AS e_type, e.state AS e_state, e.body AS e_body, e.created_at AS e_created, e.drop_reason AS e_drop, ws.key AS ws_key
  FROM deliveries d JOIN events e ON e.id = d.event_id JOIN workspaces ws ON ws.id = e.workspace_id`;

/** The delivery log, newest first, filtered by what is given (all of it must hold). */
export function loggedDeliveries(db: Db, f: { status?: string; eventType?: string; event?: string; workspace?: string; subscription?: string }, limit: number): LoggedDelivery[] {
  const where: string[] = [];
  const args: unknown[] = [];
  if (f.status) { where.push('d.status = ?'); args.push(f.status); }
  if (f.eventType) { where.push('e.event_type = ?'); args.push(f.eventType); }
  if (f.event) { where.push('e.key = ?'); args.push(f.event); }
  if (f.workspace) { where.push('ws.key = ?'); args.push(f.workspace); }
  if (f.subscription) { where.push('d.webhook_id = (SELECT id FROM webhooks WHERE key = ?)'); args.push(f.subscription); }
  return db.prepare(`${LOG} ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY d.id DESC LIMIT ?`).all(...args, limit) as LoggedDelivery[];
}

export const loggedDelivery = (db: Db, key: string): LoggedDelivery | undefined => db.prepare(`${LOG} WHERE d.key = ?`).get(key) as LoggedDelivery | undefined;

export type LoggedEvent = EventRow & { ws_key: string; n: number };

/** Events, newest first, with their workspace's key and delivery count. */
export function loggedEvents(db: Db, f: { workspace?: string; eventType?: string }, limit: number): LoggedEvent[] {
  const where: string[] = [];
  const args: unknown[] = [];
  if (f.workspace) { where.push('ws.key = ?'); args.push(f.workspace); }
  if (f.eventType) { where.push('e.event_type = ?'); args.push(f.eventType); }
  return db
    .prepare(
      `SELECT e.*, ws.key AS ws_key, (SELECT COUNT(*) FROM deliveries d WHERE d.event_id = e.id) AS n FROM events e JOIN workspaces ws ON ws.id = e.workspace_id
        ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY e.id DESC LIMIT ?`,
    )
    .all(...args, limit) as LoggedEvent[];
}
