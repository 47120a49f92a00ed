// v3 webhook routes (spec v3 4.7, 5.6, 6). Administrator or workspace key only;
// the operation's `actor: 'admin'` refuses member keys before any lookup.
import type { Ctx } from '../../context';
import { validationError } from '../../errors';
import { paginate } from '../paging';
import { EVENTS, type EventType, type ScopeType } from './events';
import { deleteSubscription, getByKey, insertSubscription, listSubscriptions, v3Shape, webhookNotFound } from './subscriptions';

export interface CreateWebhookInput {
  eventType: EventType;
  targetUrl: string;
  scope?: { type: ScopeType; key?: string };
  secret?: string;
}

export function createWebhook(ctx: Ctx, input: CreateWebhookInput) {
  const allowed: readonly ScopeType[] = EVENTS[input.eventType].scopes;
  const scope = input.scope ?? (allowed.includes('Workspace') ? { type: 'Workspace' as const } : undefined);
  if (!scope) throw validationError(`scope is required: ${input.eventType} allows ${allowed.join(', ')} scope.`, 'scope');
  if (!allowed.includes(scope.type)) {
    throw validationError(`scope.type ${scope.type} is not allowed for ${input.eventType}; it allows ${allowed.join(', ')}.`, 'scope.type');
  }
  if (scope.type === 'Workspace' && scope.key !== undefined) throw validationError('scope.key must be omitted for Workspace scope.', 'scope.key');
  if (scope.type !== 'Workspace' && scope.key === undefined) {
    const what = scope.type === 'Field' ? 'a File Upload field key' : scope.type === 'Task' ? 'a template task key or a standalone task key' : 'a template key';
    throw validationError(`scope.key is required for ${scope.type} scope: send ${what}.`, 'scope.key');
  }
  const row = insertSubscription(
    ctx,
    {
      api: 'v3',
      eventType: input.eventType,
      targetUrl: input.targetUrl,
      scopeType: scope.type,
      templateKey: scope.type === 'Template' ? scope.key : null,
      taskKey: scope.type === 'Task' ? scope.key : null,
      fieldKey: scope.type === 'Field' ? scope.key : null,
      secret: input.secret ?? null,
    },
    { template: 'scope.key', task: 'scope.key', field: 'scope.key' },
  );
  return v3Shape(row);
}

export function listWebhooks(ctx: Ctx, input: { eventType?: EventType; after?: string; pageSize?: number }) {
  const rows = listSubscriptions(ctx.db, ctx.workspace.id).filter((r) => !input.eventType || r.event_type === input.eventType);
  const pageSize = input.pageSize ?? 50;
  return paginate(rows, pageSize, input.after, ['webhooks', input.eventType ?? '', pageSize], v3Shape);
}

export function deleteWebhook(ctx: Ctx, id: string): void {
  const row = getByKey(ctx.db, ctx.workspace.id, id);
  if (!row || row.api === 'emulator') throw webhookNotFound(id);
  deleteSubscription(ctx.db, row, ctx.now());
}
