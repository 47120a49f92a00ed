// Webhook subscriptions (schema.sql `webhooks`): v3 and legacy subscriptions, and the emulator's own
// forwards (api 'emulator'). Keys are stored lower case.
import type { Db } from '../store/open';
import { insertOf, type InsertOf, type RowOf } from '../store/columns';
import { webhooksTable } from '../store/tables/webhooks';

/** A subscription row as stored (store/tables/webhooks.ts). */
export type WebhookRow = RowOf<typeof webhooksTable.columns>;

/** What the one INSERT of a subscription takes (defaults and NULLs may be left out). */
export type NewWebhook = InsertOf<typeof webhooksTable.columns>;

const WEBHOOK_INSERT = insertOf(webhooksTable);

/** The one INSERT of a subscription (the fixture loader's and the emulator's forwards' too). */
export function insertWebhook(db: Db, w: NewWebhook): void {
  db.prepare(WEBHOOK_INSERT.sql).run(WEBHOOK_INSERT.values(w));
}

export const webhookByKey = (db: Db, workspaceId: number, key: string): WebhookRow | undefined =>
  db.prepare<[number, string], WebhookRow>('SELECT * FROM webhooks WHERE workspace_id = ? AND key = ? COLLATE NOCASE').get(workspaceId, key);

export const webhookById = (db: Db, id: number): WebhookRow | undefined => db.prepare<[number], WebhookRow>('SELECT * FROM webhooks WHERE id = ?').get(id);

/** A workspace's subscriptions (not the emulator's forwards), oldest first. */
export const subscriptionsOf = (db: Db, workspaceId: number): WebhookRow[] =>
  db.prepare<[number], WebhookRow>("SELECT * FROM webhooks WHERE workspace_id = ? AND api != 'emulator' ORDER BY created_at, id").all(workspaceId);

/** Active rows of a workspace for one event type or for every event (`all`), in id order. */
export const activeWebhooksFor = (db: Db, workspaceId: number, eventType: string, all: string): WebhookRow[] =>
  db.prepare<[number, string, string], WebhookRow>('SELECT * FROM webhooks WHERE workspace_id = ? AND (event_type = ? OR event_type = ?) AND is_active = 1 ORDER BY id').all(workspaceId, eventType, all);

export const deleteWebhookRow = (db: Db, id: number): void => void db.prepare('DELETE FROM webhooks WHERE id = ?').run(id);

