// Webhook subscriptions (spec v3 4.7, 5.6, 6). No MCP tool names are given for
// these routes, so they have none. Every route is Administrator-only (or workspace key).
import { z } from 'zod';
import { CREATE, READ, REMOVE, mixed } from './define';
import { defineWith } from './define-with';
import { cursor, given, guid, nonEmptyText, pageSizeStrict } from './input-kinds';
import { allowedScopes } from '../domain/webhooks/subscriptions';
import { page } from './shapes/common';
import { webhook } from './shapes/webhooks';
import { EVENT_TYPES, SCOPE_TYPES, type EventType } from '../domain/webhooks/events';
import { createWebhook, deleteWebhook, listWebhooks } from '../domain/webhooks/v3';

const eventType = () => z.enum(EVENT_TYPES as [EventType, ...EventType[]], { error: `must be one of ${EVENT_TYPES.join(', ')}` });

/** The refusal of every webhook route to a member key that is not an Administrator (the legacy API's too). */
export const ADMINS_ONLY = 'Only Administrators may use webhook routes. An Administrator can create a key that acts as an Administrator or as the workspace.';
const webhookOperation = defineWith({
  tag: 'Webhooks',
  noTool: 'The spec names no MCP tool for webhook routes (4.6 rule 7 points to the tables of 4.3 and 4.4 only).',
  budget: 'standard',
});

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
    )
    // Declared as what the refinement accepts: an absolute URI whose scheme is http or https.
    .meta({ format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' });

export const webhookOperations = [
  webhookOperation({
    id: 'listWebhooks',
    method: 'GET',
    path: '/v3/webhooks',
    summary: 'List webhook subscriptions',
    fidelity: mixed('4.7, 5.6, 6', 'docs/webhooks.md', 'the response bodies (4.7: not shown)'),
    description: 'Every subscription of the workspace, made through v3 or the legacy API, oldest first. Administrator or workspace key only.',
    input: () => ({
      eventType: eventType().optional().describe(`only subscriptions to this event: one of ${EVENT_TYPES.join(', ')}`),
      after: cursor(),
      pageSize: pageSizeStrict(),
    }),
    query: ['eventType', 'after', 'pageSize'],
    output: () => page(webhook(), 'Page of webhook subscriptions'),
    refusals: [],
    annotations: READ,
    actor: 'admin',
    adminRefusal: ADMINS_ONLY,
    handler: (ctx, input) => listWebhooks(ctx, input),
  }),
  webhookOperation({
    id: 'createWebhook',
    method: 'POST',
    path: '/v3/webhooks',
    summary: 'Subscribe a URL to an event',
    fidelity: mixed('4.7, 5.6, 6', 'docs/webhooks.md', 'the response body (4.7: not shown)'),
    description:
      'Body: eventType, targetUrl (http or https), scope {type: Template | Task | Workspace | Field, key} (key omitted for Workspace; Field for file_uploaded), optional secret. With a secret every delivery carries SVC-Signature: sha256=<hex HMAC-SHA256 of the body>.',
    input: () => ({
      eventType: eventType().describe(`the event to deliver: one of ${EVENT_TYPES.join(', ')}`),
      targetUrl: httpUrl().describe('absolute http or https URL deliveries are POSTed to, at most 2,000 characters'),
      scope: z
        .object(
          {
            type: z
              .enum(SCOPE_TYPES as [string, ...string[]], { error: `must be one of ${SCOPE_TYPES.join(', ')}` })
              .describe('Template, Task, Workspace or Field (Field for file_uploaded); the event decides which are allowed'),
            key: guid().optional().describe('template key, task key (template or standalone task) or File Upload field key; omitted for Workspace'),
          },
          { error: 'must be an object {type, key}' },
        )
        // src/domain/webhooks/v3.ts: key omitted for Workspace, required for the others.
        .meta({
          anyOf: [
            { properties: { type: { const: 'Workspace' } }, not: given('key') },
            { properties: { type: { enum: SCOPE_TYPES.filter((t) => t !== 'Workspace') } }, required: ['key'] },
          ],
        })
        .optional()
        .describe('what to listen to; default Workspace where the event allows it'),
      secret: nonEmptyText(256).optional().describe('signs every delivery: SVC-Signature: sha256=<hex HMAC-SHA256 of the body>; never returned'),
    }),
    output: webhook,
    // The scopes each event allows (src/domain/webhooks/events.ts, spec v3 6), and a scope required where Workspace is not one.
    bodyRule: {
      anyOf: EVENT_TYPES.map((e) => {
        const scopes: readonly string[] = allowedScopes(e);
        return {
          properties: { eventType: { const: e }, scope: { properties: { type: { enum: [...scopes] } } } },
          ...(scopes.includes('Workspace') ? {} : { required: ['scope'] }),
        };
      }),
    },
    refusals: [],
    annotations: CREATE,
    actor: 'admin',
    adminRefusal: ADMINS_ONLY,
    status: 201,
    handler: (ctx, input) => createWebhook(ctx, input as never),
  }),
  webhookOperation({
    id: 'deleteWebhook',
    method: 'DELETE',
    path: '/v3/webhooks/:id',
    summary: 'Delete a webhook subscription',
    fidelity: mixed('4.7, 5.6', 'docs/webhooks.md', 'the response (4.7: not shown)'),
    description: 'Pending deliveries of the subscription are cancelled.',
    input: () => ({ id: guid().describe('subscription id (GUID)') }),
    refusals: ['404 WEBHOOK_NOT_FOUND'],
    annotations: REMOVE,
    actor: 'admin',
    adminRefusal: ADMINS_ONLY,
    status: 204,
    handler: (ctx, input) => deleteWebhook(ctx, input.id),
  }),
];
