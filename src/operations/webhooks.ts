// Webhook subscriptions (spec v3 4.7, 5.6, 6). No MCP tool names are given for
// these routes, so they have none. Every route is Administrator-only (or workspace key).
import { z } from 'zod';
import { CREATE, READ, REMOVE, defineOperation } from './define';
import { cursor, guid, pageSizeStrict } from './schemas';
import { EVENT_TYPES, SCOPE_TYPES, isEventType } from '../domain/webhooks/events';
import { createWebhook, deleteWebhook, listWebhooks } from '../domain/webhooks/v3';

const eventType = () =>
  z
    .string({ error: `must be one of ${EVENT_TYPES.join(', ')}` })
    .refine(isEventType, { error: `must be one of ${EVENT_TYPES.join(', ')}` }) as unknown as z.ZodType<(typeof EVENT_TYPES)[number]>;

const httpUrl = () =>
  z
    .string({ error: 'must be an absolute http or https URL' })
    .max(2000, { error: 'must be at most 2,000 characters' })
    .refine(
      (s) => {
        try {
          const u = new URL(s);
          return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
        } catch {
          return false;
        }
      },
      { error: 'must be an absolute http or https URL' },
    );

export const webhookOperations = [
  defineOperation({
    id: 'listWebhooks',
    method: 'GET',
    path: '/v3/webhooks',
    summary: 'List webhook subscriptions',
    description: 'Every subscription of the workspace, made through v3 or the legacy API, oldest first. Administrator or workspace key only.',
    input: { eventType: eventType().optional(), after: cursor(), pageSize: pageSizeStrict() },
    query: ['eventType', 'after', 'pageSize'],
    budget: 'standard',
    annotations: READ,
    actor: 'admin',
    handler: (ctx, input) => listWebhooks(ctx, input),
  }),
  defineOperation({
    id: 'createWebhook',
    method: 'POST',
    path: '/v3/webhooks',
    summary: 'Subscribe a URL to an event',
    description:
      'Body: eventType, targetUrl (http or https), scope {type: Template | Task | Workspace | Field, key} (key omitted for Workspace; Field for file_uploaded), optional secret. With a secret every delivery carries SVC-Signature: sha256=<hex HMAC-SHA256 of the body>.',
    input: {
      eventType: eventType(),
      targetUrl: httpUrl(),
      scope: z
        .object(
          {
            type: z.enum(SCOPE_TYPES as [string, ...string[]], { error: `must be one of ${SCOPE_TYPES.join(', ')}` }),
            key: guid().optional(),
          },
          { error: 'must be an object {type, key}' },
        )
        .optional(),
      secret: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(256, { error: 'must be at most 256 characters' }).optional(),
    },
    budget: 'standard',
    annotations: CREATE,
    actor: 'admin',
    status: 201,
    handler: (ctx, input) => createWebhook(ctx, input as never),
  }),
  defineOperation({
    id: 'deleteWebhook',
    method: 'DELETE',
    path: '/v3/webhooks/:id',
    summary: 'Delete a webhook subscription',
    description: 'Pending deliveries of the subscription are cancelled.',
    input: { id: guid() },
    budget: 'standard',
    annotations: REMOVE,
    actor: 'admin',
    status: 204,
    handler: (ctx, input) => deleteWebhook(ctx, input.id),
  }),
];
