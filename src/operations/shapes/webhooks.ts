// Webhook subscription (spec v3 4.7 "not shown"; designed in docs/webhooks.md).
import { z } from 'zod';
import { guidOut, timestamp } from './common';
import { EVENT_TYPES, SCOPE_TYPES } from '../../domain/webhooks/events';
import { lazy } from '../../lazy';

export const webhookScope = lazy(() => z
  .strictObject({
    type: z.enum(SCOPE_TYPES as [string, ...string[]]).describe('Template, Task, Workspace or Field'),
    key: guidOut('Template key, task key or File Upload field key; absent for Workspace').optional(),
  })
  .describe('What the subscription listens to'));

export const webhook = lazy(() => z
  .strictObject({
    id: guidOut('Subscription id'),
    eventType: z.enum(EVENT_TYPES as [string, ...string[]]).describe('The event delivered'),
    targetUrl: z.string().describe('Where deliveries are POSTed'),
    scope: webhookScope(),
    hasSecret: z.boolean().describe('Whether deliveries are signed (SVC-Signature); the secret itself is never returned'),
    isActive: z.boolean().describe('Whether deliveries are sent'),
    api: z.enum(['v2', 'v3']).describe('The API it was made through: v3, or v2 (the legacy API)'),
    source: z.string().optional().describe('Legacy subscriptions: the source given when subscribing'),
    createdDateTime: timestamp('When it was made'),
  })
  .describe('Webhook subscription'));
