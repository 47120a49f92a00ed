// Webhook subscriptions (schema.sql `webhooks`): v3 and legacy subscriptions, and the emulator's own
// forwards (api 'emulator'). Keys are stored lower case.
import type { Db } from '../store/open';

export interface WebhookRow {
  id: number;
  key: string;
  workspace_id: number;
  api: 'v2' | 'v3' | 'emulator';
  source: string | null;
  event_type: string;
  target_url: string;
  /** Workspace, Template, Task or Field (src/domain/webhooks/events.ts ScopeType). */
  scope_type: 'Workspace' | 'Template' | 'Task' | 'Field' | null;
  template_key: string | null;
  task_key: string | null;
  field_key: string | null;
  secret: string | null;
  is_active: number;
  created_by: number | null;
  created_at: number;
}

export type NewWebhook = Pick<WebhookRow, 'key' | 'workspace_id' | 'api' | 'source' | 'event_type' | 'target_url' | 'scope_type' | 'template_key' | 'task_key' | 'field_key' | 'secret' | 'created_by' | 'created_at'>;

export function insertWebhook(db: Db, w: NewWebhook): void {
  db.prepare(
    `INSERT INTO webhooks (key, workspace_id, api, source, event_type, target_url, scope_type, template_key, task_key, field_key, secret, created_by, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(w.key, w.workspace_id, w.api, w.source, w.event_type, w.target_url, w.scope_type, w.template_key, w.task_key, w.field_key, w.secret, w.created_by, w.created_at);
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

