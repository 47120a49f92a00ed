// Webhook subscriptions (spec v3 4.7, 5.6, 6; legacy spec 2, 4.7). One table
// holds v3, legacy (v2) and emulator forward subscriptions: they are one thing
// in the service, so each API lists and deletes all of them in its own shape.
import type { Ctx } from '../../context';
import type { Db } from '../../store/open';
import { iso } from '../../clock';
import { newGuid } from '../../ids';
import { notFound, validationError } from '../../errors';
import { EVENTS, type EventType, type ScopeType } from './events';
import { deleteWebhookRow, insertWebhook, subscriptionsOf, webhookByKey, type WebhookRow } from '../../rows/webhooks';
import { cancelPendingDeliveries } from '../../rows/webhook-events';
import { findTemplateField, taskKeyExists, templateExists } from './keys';

export type { WebhookRow };

/** http(s) with a host; anything else is refused (field as given). */
export function checkTargetUrl(url: string, field: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw validationError(`${field} must be an absolute http or https URL.`, field);
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) throw validationError(`${field} must be an absolute http or https URL.`, field);
  if (url.length > 2000) throw validationError(`${field} must be at most 2,000 characters.`, field);
  return url;
}

export interface NewSubscription {
  api: 'v2' | 'v3';
  eventType: EventType;
  targetUrl: string;
  source?: string | null;
  templateKey?: string | null;
  taskKey?: string | null;
  fieldKey?: string | null;
  scopeType: ScopeType;
  secret?: string | null;
}

/** Checks that each scope key names something (400 with `fields[which]`), then stores. */
export function insertSubscription(ctx: Ctx, s: NewSubscription, fields: { template: string; task: string; field: string }): WebhookRow {
  const ws = ctx.workspace.id;
  if (s.templateKey && !templateExists(ctx.db, ws, s.templateKey)) {
    throw validationError(`${fields.template} names no template in this workspace.`, fields.template);
  }
  if (s.taskKey && !taskKeyExists(ctx.db, ws, s.taskKey)) {
    throw validationError(`${fields.task} names no template task or standalone task in this workspace.`, fields.task);
  }
  if (s.fieldKey) {
    const f = findTemplateField(ctx.db, ws, s.fieldKey);
    if (!f) throw validationError(`${fields.field} names no field of a template in this workspace.`, fields.field);
    if (f.type !== 'FileUpload') throw validationError(`${fields.field} names a ${f.type} field; file_uploaded needs a File Upload field.`, fields.field);
  }
  const key = newGuid();
  insertWebhook(ctx.db, {
    key,
    workspace_id: ws,
    api: s.api,
    source: s.source ?? null,
    event_type: s.eventType,
    target_url: s.targetUrl,
    scope_type: s.scopeType,
    template_key: s.templateKey?.toLowerCase() ?? null,
    task_key: s.taskKey?.toLowerCase() ?? null,
    field_key: s.fieldKey?.toLowerCase() ?? null,
    secret: s.secret ?? null,
    created_by: ctx.actor.member.id,
    created_at: ctx.now(),
  });
  return getByKey(ctx.db, ws, key)!;
}

export function getByKey(db: Db, workspaceId: number, key: string): WebhookRow | undefined {
  return webhookByKey(db, workspaceId, key);
}

export function listSubscriptions(db: Db, workspaceId: number): WebhookRow[] {
  return subscriptionsOf(db, workspaceId);
}

/** Deletes a subscription; its pending deliveries are cancelled (nothing is sent after unsubscribe). */
export function deleteSubscription(db: Db, row: WebhookRow, now: number): void {
  cancelPendingDeliveries(db, row.id, now);
  deleteWebhookRow(db, row.id);
}

/** The scope a row answers in v3 (legacy rows with both keys show the task key). */
export function scopeOf(row: WebhookRow): { type: ScopeType; key?: string } {
  if (row.field_key) return { type: 'Field', key: row.field_key };
  if (row.task_key) return { type: 'Task', key: row.task_key };
  if (row.template_key) return { type: 'Template', key: row.template_key };
  return { type: 'Workspace' };
}

/** v3 webhook subscription (spec "not shown"; docs/webhooks.md). The secret is write-only. */
export function v3Shape(row: WebhookRow) {
  return {
    id: row.key,
    eventType: row.event_type,
    targetUrl: row.target_url,
    scope: scopeOf(row),
    hasSecret: row.secret !== null,
    isActive: row.is_active === 1,
    api: row.api,
    source: row.source ?? undefined,
    createdDateTime: iso(row.created_at),
  };
}

/** Legacy subscription (legacy spec 2): the scope keys it was created with, and only those. */
export function legacyShape(row: WebhookRow) {
  const out: Record<string, unknown> = {
    id: row.key,
    source: row.source,
    eventType: row.event_type,
    targetURL: row.target_url,
    isActive: row.is_active === 1,
  };
  if (row.template_key) out.templateKey = row.template_key;
  if (row.task_key) out.taskKey = row.task_key;
  if (row.field_key) out.taskContentKey = row.field_key;
  return out;
}

export const webhookNotFound = (id: string) => notFound('WEBHOOK_NOT_FOUND', `No webhook subscription ${id} in this workspace.`);

export const allowedScopes = (e: EventType) => EVENTS[e].scopes;
