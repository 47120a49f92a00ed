// /_emulator/webhooks/* (docs/webhooks.md "Control routes"): the delivery log,
// replay, the event list and the forward option. Emulator-only; never part of /v3.
// Declared as control routes (control/define.ts); a wrong method is 404 here, as always.
import { z } from 'zod';
import type { Emulator } from '../emulator';
import { json } from '../transports/web/respond';
import { readJson } from '../transports/web/body';
import { ApiError, validationError } from '../errors';
import { newGuid } from '../ids';
import { iso } from '../clock';
import { ALL_EVENTS } from '../domain/webhooks/events';
import { checkTargetUrl } from '../domain/webhooks/subscriptions';
import { defineControlRoute, type ControlRoute } from '../control/define';
import { deleteForward, deleteForwards, forwardByKey, forwards, insertForward, workspaceKeyById, workspaceKeys, type ForwardRow } from '../rows/webhook-forwards';
import { pendingDeliveryCount } from '../rows/webhook-deliveries';
import { getDelivery, listDeliveries, listEvents, replayDelivery } from './log';
import type { WebhookSender } from './sender';
import { lazy } from '../lazy';

export type { ForwardRow };

/** A control body: JSON whatever the Content-Type (curl -d), within the body limit. */
async function readObject(req: Request, limit: number): Promise<Record<string, unknown>> {
  let v: unknown;
  try {
    v = await readJson(req, limit, true);
  } catch (e) {
    if (e instanceof ApiError && e.status === 413) throw e;
    v = null;
  }
  if (v === undefined) return {};
  if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  throw validationError('The request body is not a valid JSON object.');
}

const forwardView = (db: Emulator['db'], r: ForwardRow) => ({
  id: r.key,
  workspace: workspaceKeyById(db, r.workspace_id),
  targetUrl: r.target_url,
  source: r.source ?? undefined,
  createdDateTime: iso(r.created_at),
});

/** Forwards every event of the workspaces (all when none named) to `url`; returns the new rows. */
export function addForward(emu: Emulator, url: string, workspaceKey: string | undefined, source: string): ForwardRow[] {
  const db = emu.db;
  const wss = workspaceKeys(db).filter((w) => !workspaceKey || w.key.toLowerCase() === workspaceKey.toLowerCase());
  if (workspaceKey && wss.length === 0) throw new ApiError(404, 'WORKSPACE_NOT_FOUND', `No workspace ${workspaceKey}.`);
  const now = emu.clock.now();
  const keys: string[] = [];
  db.transaction(() => {
    for (const w of wss) {
      const key = newGuid();
      keys.push(key);
      insertForward(db, { key, workspaceId: w.id, source, eventType: ALL_EVENTS, targetUrl: url, createdAt: now });
    }
  })();
  return keys.map((k) => forwardByKey(db, k)!);
}

/** The sender's state: paused or not, requests in flight, deliveries pending. */
export function senderState(emu: Emulator, sender: WebhookSender) {
  return { paused: sender.isPaused, inFlight: sender.inFlightCount, pendingDeliveries: pendingDeliveryCount(emu.db) };
}

const ROOT = '/_emulator/webhooks';
const filter = (description: string) => ({ description, schema: { type: 'string' } });
const some = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item) });
const deliveryNotFound = (id: string) => new ApiError(404, 'DELIVERY_NOT_FOUND', `No delivery ${id}.`);

const senderOutput = lazy(() => z.object({ paused: z.boolean(), inFlight: z.number().int(), pendingDeliveries: z.number().int() }));
const delivery = lazy(() => z.object({
  id: z.string(),
  status: z.string(),
  workspace: z.string(),
  event: z.object({ id: z.string(), type: z.string(), state: z.string(), createdDateTime: z.string().optional(), dropReason: z.string().optional() }),
  subscription: z.object({ id: z.string(), api: z.string(), eventType: z.string(), scope: z.object({ type: z.string(), key: z.string().optional() }), hasSecret: z.boolean() }).optional(),
  targetUrl: z.string(),
  attempts: z.number().int(),
  nextAttemptDateTime: z.string().optional(),
  lastResponseStatus: z.number().int().optional(),
  lastError: z.string().optional(),
  lastResponseBody: z.string().optional(),
  request: z.object({ method: z.literal('POST'), url: z.string(), headers: z.record(z.string(), z.string()).optional(), body: z.string().optional() }),
  attemptLog: z.array(z.object({ dateTime: z.string().optional(), responseStatus: z.number().int().optional(), error: z.string().optional(), durationMs: z.number() })),
  replayOf: z.string().optional(),
  createdDateTime: z.string().optional(),
  deliveredDateTime: z.string().optional(),
}));
const event = lazy(() => z.object({
  id: z.string(),
  type: z.string(),
  workspace: z.string(),
  state: z.string(),
  dropReason: z.string().optional(),
  subject: z.unknown().optional(),
  body: z.string().optional(),
  deliveries: z.number().int(),
  createdDateTime: z.string().optional(),
  processedDateTime: z.string().optional(),
}));
const forward = lazy(() => z.object({ id: z.string(), workspace: z.string().optional(), targetUrl: z.string(), source: z.string().optional(), createdDateTime: z.string().optional() }));

/** The webhook control routes of one emulator's sender. */
export function webhookControlRoutes(sender: WebhookSender): ControlRoute[] {
  const route = <B>(r: ControlRoute<B>) => defineControlRoute<B>({ ...r, wrongMethod: 'not-found' });
  const senderRoute = (path: string, summary: string, act: () => void) =>
    route({ method: 'POST', path, summary, output: () => senderOutput(), handler: (emu) => (act(), senderState(emu, sender)) });
  return [
    route({
      method: 'GET',
      path: `${ROOT}/deliveries`,
      summary: 'The delivery log, newest first',
      query: {
        status: filter('Only deliveries in this status.'),
        eventType: filter('Only deliveries of this event type.'),
        subscription: filter('Only deliveries of this subscription (its id).'),
        workspace: filter('Only deliveries of this workspace (its key).'),
        event: filter('Only deliveries of this event (its id).'),
        limit: { description: 'How many, 1 to 1000 (default 100).', schema: { type: 'integer', minimum: 1 } },
      },
      output: () => some(delivery()),
      refusals: { 400: ['VALIDATION_ERROR'] },
      handler: (emu, { url }) => {
        const q = url.searchParams;
        const limit = q.get('limit');
        if (limit !== null && !/^\d+$/.test(limit)) throw validationError('limit must be a whole number from 1 to 1000.', 'limit');
        return {
          items: listDeliveries(emu.db, {
            status: q.get('status') ?? undefined,
            eventType: q.get('eventType') ?? undefined,
            subscription: q.get('subscription') ?? undefined,
            workspace: q.get('workspace') ?? undefined,
            event: q.get('event') ?? undefined,
            limit: limit === null ? undefined : Number(limit),
          }),
        };
      },
    }),
    route({
      method: 'GET',
      path: `${ROOT}/deliveries/:id`,
      summary: 'One delivery',
      output: delivery,
      refusals: { 404: ['DELIVERY_NOT_FOUND'] },
      handler: (emu, { params }) => {
        const d = getDelivery(emu.db, decodeURIComponent(params.id));
        if (!d) throw deliveryNotFound(params.id);
        return d;
      },
    }),
    route({
      method: 'POST',
      path: `${ROOT}/deliveries/:id/replay`,
      summary: 'Send a delivery again: a new delivery of the same event, due now',
      status: 202,
      output: delivery,
      refusals: { 404: ['DELIVERY_NOT_FOUND'] },
      handler: (emu, { params }) => {
        const fresh = replayDelivery(emu.db, decodeURIComponent(params.id), emu.clock.now());
        if (!fresh) throw deliveryNotFound(params.id);
        sender.kick();
        return json(202, getDelivery(emu.db, fresh), {});
      },
    }),
    route({ method: 'GET', path: `${ROOT}/sender`, summary: "The sender's state", output: () => senderOutput(), handler: (emu) => senderState(emu, sender) }),
    senderRoute(`${ROOT}/pause`, 'Pause the sender (deliveries wait)', () => sender.pause()),
    senderRoute(`${ROOT}/resume`, 'Resume the sender', () => sender.resume()),
    route({
      method: 'GET',
      path: `${ROOT}/events`,
      summary: 'The events recorded, newest first',
      query: { workspace: filter('Only events of this workspace (its key).'), eventType: filter('Only events of this type.') },
      output: () => some(event()),
      handler: (emu, { url }) => ({ items: listEvents(emu.db, { workspace: url.searchParams.get('workspace') ?? undefined, eventType: url.searchParams.get('eventType') ?? undefined }) }),
    }),
    route({ method: 'GET', path: `${ROOT}/forward`, summary: 'The event forwards', output: () => some(forward()), handler: (emu) => ({ items: forwards(emu.db).map((r) => forwardView(emu.db, r)) }) }),
    route({
      method: 'POST',
      path: `${ROOT}/forward`,
      summary: 'Forward every event of a workspace (all when none named) to a URL',
      body: () => z.object({ targetUrl: z.string().describe('An absolute http or https URL.'), workspace: z.string().optional().describe('A workspace key (teamId); all when absent.') }),
      ownBody: true,
      status: 201,
      output: () => some(forward()),
      refusals: { 400: ['VALIDATION_ERROR'], 404: ['WORKSPACE_NOT_FOUND'], 413: ['PAYLOAD_TOO_LARGE'] },
      handler: async (emu, { req }) => {
        const body = await readObject(req, emu.maxBodyBytes);
        if (typeof body.targetUrl !== 'string') throw validationError('targetUrl is required: an absolute http or https URL.', 'targetUrl');
        checkTargetUrl(body.targetUrl, 'targetUrl');
        if (body.workspace !== undefined && typeof body.workspace !== 'string') throw validationError('workspace must be a workspace key (teamId).', 'workspace');
        const rows = addForward(emu, body.targetUrl, body.workspace as string | undefined, 'control route');
        return { items: rows.map((r) => forwardView(emu.db, r)) };
      },
    }),
    route({
      method: 'DELETE',
      path: `${ROOT}/forward`,
      summary: 'Remove every event forward',
      noContent: true,
      handler: (emu) => {
        deleteForwards(emu.db);
      },
    }),
    route({
      method: 'DELETE',
      path: `${ROOT}/forward/:id`,
      summary: 'Remove one event forward',
      noContent: true,
      refusals: { 404: ['FORWARD_NOT_FOUND'] },
      handler: (emu, { params }) => {
        if (!deleteForward(emu.db, decodeURIComponent(params.id))) throw new ApiError(404, 'FORWARD_NOT_FOUND', `No forward ${params.id}.`);
      },
    }),
  ];
}
