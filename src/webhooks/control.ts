// /_emulator/webhooks/* (docs/webhooks.md "Control routes"): the delivery log,
// replay, the event list and the forward option. Emulator-only; never part of /v3.
import type { Emulator } from '../emulator';
import type { ExtraRoute } from '../transports/http/app';
import { json } from '../transports/web/respond';
import { readJson } from '../transports/web/body';
import { ApiError, validationError } from '../errors';
import { newGuid } from '../ids';
import { iso } from '../clock';
import { ALL_EVENTS } from '../domain/webhooks/events';
import { checkTargetUrl } from '../domain/webhooks/subscriptions';
import { getDelivery, listDeliveries, listEvents, replayDelivery } from './log';
import type { WebhookSender } from './sender';

const JSON_HEADERS = (requestId: string) => ({ 'X-Request-Id': requestId });

/** --admin-token / --no-admin (../shared/EMULATOR.md "Addresses"). Answers undefined when the routes are off. */
export function adminAllowed(emu: Emulator, req: Request): boolean | undefined {
  if (emu.options.noAdmin) return undefined;
  const token = emu.options.adminToken;
  if (!token) return true;
  if (req.headers.get('authorization') !== `Bearer ${token}`) {
    throw new ApiError(401, 'UNAUTHORIZED', 'The /_emulator control routes need Authorization: Bearer <admin token>.');
  }
  return true;
}

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

export interface ForwardRow {
  key: string;
  workspace_id: number;
  target_url: string;
  source: string | null;
  created_at: number;
}

const forwardView = (db: Emulator['db'], r: ForwardRow) => ({
  id: r.key,
  workspace: db.prepare<[number], { key: string }>('SELECT key FROM workspaces WHERE id = ?').get(r.workspace_id)?.key,
  targetUrl: r.target_url,
  source: r.source ?? undefined,
  createdDateTime: iso(r.created_at),
});

/** Forwards every event of the workspaces (all when none named) to `url`; returns the new rows. */
export function addForward(emu: Emulator, url: string, workspaceKey: string | undefined, source: string): ForwardRow[] {
  const db = emu.db;
  const wss = db.prepare<[], { id: number; key: string }>('SELECT id, key FROM workspaces ORDER BY id').all().filter((w) => !workspaceKey || w.key.toLowerCase() === workspaceKey.toLowerCase());
  if (workspaceKey && wss.length === 0) throw new ApiError(404, 'WORKSPACE_NOT_FOUND', `No workspace ${workspaceKey}.`);
  const now = emu.clock.now();
  const keys: string[] = [];
  db.transaction(() => {
    for (const w of wss) {
      const key = newGuid();
      keys.push(key);
      db.prepare("INSERT INTO webhooks (key, workspace_id, api, source, event_type, target_url, scope_type, created_at) VALUES (?, ?, 'emulator', ?, ?, ?, 'Workspace', ?)").run(
        key,
        w.id,
        source,
        ALL_EVENTS,
        url,
        now,
      );
    }
  })();
  return keys.map((k) => db.prepare<[string], ForwardRow>('SELECT * FROM webhooks WHERE key = ?').get(k)!);
}

/** The sender's state: paused or not, requests in flight, deliveries pending. */
export function senderState(emu: Emulator, sender: WebhookSender) {
  const pending = emu.db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM deliveries WHERE status = 'pending'").get()!.n;
  return { paused: sender.isPaused, inFlight: sender.inFlightCount, pendingDeliveries: pending };
}

export function controlRoutes(emu: Emulator, sender: WebhookSender): ExtraRoute {
  return async (req, info) => {
    const url = new URL(req.url);
    const path = url.pathname.replace(/\/+$/, '');
    if (!path.startsWith('/_emulator/webhooks')) return undefined;
    if (!adminAllowed(emu, req)) return undefined;
    const db = emu.db;
    const h = JSON_HEADERS(info.requestId);
    const q = url.searchParams;
    const m = req.method;
    let match: RegExpExecArray | null;

    if (path === '/_emulator/webhooks/deliveries' && m === 'GET') {
      const limit = q.get('limit');
      if (limit !== null && !/^\d+$/.test(limit)) throw validationError('limit must be a whole number from 1 to 1000.', 'limit');
      const items = listDeliveries(db, {
        status: q.get('status') ?? undefined,
        eventType: q.get('eventType') ?? undefined,
        subscription: q.get('subscription') ?? undefined,
        workspace: q.get('workspace') ?? undefined,
        event: q.get('event') ?? undefined,
        limit: limit === null ? undefined : Number(limit),
      });
      return json(200, { items }, h);
    }
    if ((match = /^\/_emulator\/webhooks\/deliveries\/([^/]+)$/.exec(path)) && m === 'GET') {
      const d = getDelivery(db, decodeURIComponent(match[1]));
      if (!d) throw new ApiError(404, 'DELIVERY_NOT_FOUND', `No delivery ${match[1]}.`);
      return json(200, d, h);
    }
    if ((match = /^\/_emulator\/webhooks\/deliveries\/([^/]+)\/replay$/.exec(path)) && m === 'POST') {
      const fresh = replayDelivery(db, decodeURIComponent(match[1]), emu.clock.now());
      if (!fresh) throw new ApiError(404, 'DELIVERY_NOT_FOUND', `No delivery ${match[1]}.`);
      sender.kick();
      return json(202, getDelivery(db, fresh), h);
    }
    if (path === '/_emulator/webhooks/sender' && m === 'GET') return json(200, senderState(emu, sender), h);
    if (path === '/_emulator/webhooks/pause' && m === 'POST') {
      sender.pause();
      return json(200, senderState(emu, sender), h);
    }
    if (path === '/_emulator/webhooks/resume' && m === 'POST') {
      sender.resume();
      return json(200, senderState(emu, sender), h);
    }
    if (path === '/_emulator/webhooks/events' && m === 'GET') {
      return json(200, { items: listEvents(db, { workspace: q.get('workspace') ?? undefined, eventType: q.get('eventType') ?? undefined }) }, h);
    }
    if (path === '/_emulator/webhooks/forward') {
      if (m === 'GET') {
        const rows = db.prepare<[], ForwardRow>("SELECT * FROM webhooks WHERE api = 'emulator' ORDER BY id").all();
        return json(200, { items: rows.map((r) => forwardView(db, r)) }, h);
      }
      if (m === 'POST') {
        const body = await readObject(req, emu.maxBodyBytes);
        if (typeof body.targetUrl !== 'string') throw validationError('targetUrl is required: an absolute http or https URL.', 'targetUrl');
        checkTargetUrl(body.targetUrl, 'targetUrl');
        if (body.workspace !== undefined && typeof body.workspace !== 'string') throw validationError('workspace must be a workspace key (teamId).', 'workspace');
        const rows = addForward(emu, body.targetUrl, body.workspace as string | undefined, 'control route');
        return json(201, { items: rows.map((r) => forwardView(db, r)) }, h);
      }
      if (m === 'DELETE') {
        db.prepare("DELETE FROM webhooks WHERE api = 'emulator'").run();
        return json(204, undefined, h);
      }
    }
    if ((match = /^\/_emulator\/webhooks\/forward\/([^/]+)$/.exec(path)) && m === 'DELETE') {
      const r = db.prepare("DELETE FROM webhooks WHERE api = 'emulator' AND key = ?").run(decodeURIComponent(match[1]));
      if (r.changes === 0) throw new ApiError(404, 'FORWARD_NOT_FOUND', `No forward ${match[1]}.`);
      return json(204, undefined, h);
    }
    throw new ApiError(404, 'NOT_FOUND', `No route matches ${m} ${url.pathname}.`);
  };
}
