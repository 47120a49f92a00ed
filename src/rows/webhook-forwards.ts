// The emulator's own event forwards (`webhooks` rows with api 'emulator', docs/webhooks.md
// "Forward"): every event of a workspace sent to one URL, set by /_emulator/webhooks/forward
// or --forward-events.
import type { Db } from '../store/open';
import { insertWebhook, type WebhookRow } from './webhooks';

/** What a forward's callers read of its `webhooks` row (the finders select the whole row). */
export type ForwardRow = Pick<WebhookRow, 'key' | 'workspace_id' | 'target_url' | 'source' | 'created_at'>;

/** Every workspace (id order), to forward to one or all. */
export const workspaceKeys = (db: Db): { id: number; key: string }[] => db.prepare<[], { id: number; key: string }>('SELECT id, key FROM workspaces ORDER BY id').all();

/** A workspace's key by row id. */
export const workspaceKeyById = (db: Db, id: number): string | undefined => db.prepare<[number], { key: string }>('SELECT key FROM workspaces WHERE id = ?').get(id)?.key;

export function insertForward(db: Db, f: { key: string; workspaceId: number; source: string; eventType: string; targetUrl: string; createdAt: number }): void {
  insertWebhook(db, { key: f.key, workspace_id: f.workspaceId, api: 'emulator', source: f.source, event_type: f.eventType, target_url: f.targetUrl, scope_type: 'Workspace', created_at: f.createdAt });
}

export const forwardByKey = (db: Db, key: string): ForwardRow | undefined => db.prepare<[string], ForwardRow>('SELECT * FROM webhooks WHERE key = ?').get(key);

export const forwards = (db: Db): ForwardRow[] => db.prepare<[], ForwardRow>("SELECT * FROM webhooks WHERE api = 'emulator' ORDER BY id").all();

export function deleteForwards(db: Db): void {
  db.prepare("DELETE FROM webhooks WHERE api = 'emulator'").run();
}

/** Removes the forwards one source set (the previous start's --forward-events). */
export function deleteForwardsFrom(db: Db, source: string): void {
  db.prepare("DELETE FROM webhooks WHERE api = 'emulator' AND source = ?").run(source);
}

/** Removes one forward; false when there was none. */
export const deleteForward = (db: Db, key: string): boolean => db.prepare("DELETE FROM webhooks WHERE api = 'emulator' AND key = ?").run(key).changes > 0;
