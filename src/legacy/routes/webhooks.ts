// Legacy webhook subscriptions (legacy spec 2, 4.7): query parameters, per-event
// required keys, 400 for bad input, 404 when a list is empty (legacy spec 7).
// Administrator or workspace key only (spec v3 5.6), like every webhook route.
import type { Ctx } from '../../context';
import { isGuid } from '../../ids';
import { bad, guidParam, param } from '../params';
import { LEGACY_EVENT_TYPES, type EventType, type ScopeType } from '../../domain/webhooks/events';
import { checkTargetUrl, deleteSubscription, getByKey, insertSubscription, legacyShape, listSubscriptions } from '../../domain/webhooks/subscriptions';
import { ApiError } from '../../errors';
import { defineLegacyRoute, legacyError } from '../define';
import { Reply } from '../../operations/define';

const eventList = LEGACY_EVENT_TYPES.join(', ');

export function listLegacy(ctx: Ctx, q: URLSearchParams) {
  const source = param(q, 'source') ?? 'ALL';
  const eventType = param(q, 'eventType') ?? 'ALL';
  if (eventType.toUpperCase() !== 'ALL' && !(LEGACY_EVENT_TYPES as string[]).includes(eventType)) throw bad(`eventType must be ALL or one of ${eventList}.`);
  const rows = listSubscriptions(ctx.db, ctx.workspace.id).filter(
    (r) =>
      (LEGACY_EVENT_TYPES as string[]).includes(r.event_type) &&
      (eventType.toUpperCase() === 'ALL' || r.event_type === eventType) &&
      (source.toUpperCase() === 'ALL' || (r.source ?? '').toLowerCase() === source.toLowerCase()),
  );
  if (rows.length === 0) throw legacyError(404, 'No webhook subscriptions match.');
  return rows.map(legacyShape);
}

export function subscribeLegacy(ctx: Ctx, q: URLSearchParams) {
  const source = param(q, 'source');
  if (!source) throw bad('source is required.');
  const eventType = param(q, 'eventType');
  if (!eventType) throw bad(`eventType is required: one of ${eventList}.`);
  if (!(LEGACY_EVENT_TYPES as string[]).includes(eventType)) throw bad(`eventType ${eventType} is not valid: use one of ${eventList}.`);
  const targetUrl = param(q, 'targetUrl');
  if (!targetUrl) throw bad('targetUrl is required.');
  try {
    checkTargetUrl(targetUrl, 'targetUrl');
  } catch (e) {
    if (e instanceof ApiError) throw bad(e.message);
    throw e;
  }
  const templateKey = guidParam(q, 'templateKey');
  const taskKey = guidParam(q, 'taskKey');
  const taskContentKey = guidParam(q, 'taskContentKey');
  const secret = param(q, 'secret');
  if (secret !== undefined && secret.length > 256) throw bad('secret must be at most 256 characters.');
  // Keys per event (legacy spec 4.7); keys an event does not use are ignored.
  let keys: { templateKey?: string; taskKey?: string; fieldKey?: string; scopeType: ScopeType };
  switch (eventType as EventType) {
    case 'new_checklist':
      if (!templateKey) throw bad('templateKey is required for new_checklist.');
      keys = { templateKey, scopeType: 'Template' };
      break;
    case 'task_completed':
      keys = { templateKey, taskKey, scopeType: taskKey ? 'Task' : templateKey ? 'Template' : 'Workspace' };
      break;
    case 'file_uploaded':
      if (!taskContentKey) throw bad('taskContentKey is required for file_uploaded: the key of a File Upload control.');
      keys = { fieldKey: taskContentKey, scopeType: 'Field' };
      break;
    default:
      keys = { scopeType: 'Workspace' };
  }
  try {
    const row = insertSubscription(ctx, { api: 'v2', eventType: eventType as EventType, targetUrl, source, secret, ...keys }, { template: 'templateKey', task: 'taskKey', field: 'taskContentKey' });
    return legacyShape(row);
  } catch (e) {
    if (e instanceof ApiError && e.status === 400) throw bad(e.message);
    throw e;
  }
}

export function unsubscribeLegacy(ctx: Ctx, q: URLSearchParams) {
  const id = param(q, 'subscriptionId');
  if (!id) throw bad('subscriptionId is required.');
  if (!isGuid(id)) throw bad('subscriptionId must be a GUID.');
  const row = getByKey(ctx.db, ctx.workspace.id, id);
  // Legacy answers 200 whether or not the subscription still existed (legacy spec 4.7 lists 200, 400, 401).
  if (row && row.api !== 'emulator') deleteSubscription(ctx.db, row, ctx.now());
  return new Reply(200, undefined);
}

export const webhookLegacyRoutes = [
  defineLegacyRoute({ method: 'GET', path: '/api/web-hook/subscriptions', admin: true, handler: (ctx, r) => listLegacy(ctx, r.query) }),
  defineLegacyRoute({ method: 'POST', path: '/api/web-hook/subscribe', admin: true, handler: (ctx, r) => subscribeLegacy(ctx, r.query) }),
  defineLegacyRoute({ method: 'DELETE', path: '/api/web-hook/unsubscribe', admin: true, handler: (ctx, r) => unsubscribeLegacy(ctx, r.query) }),
];
