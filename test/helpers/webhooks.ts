// Webhook test helpers: a real local HTTP receiver, a ctx for firing the event
// hook directly (payload golden tests), waits, and a harness for tests that fire
// events through the real routes.
import { createServer, type IncomingHttpHeaders, type ServerResponse, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Emulator } from '../../src/emulator';
import type { Ctx } from '../../src/context';
import { makeCtx } from '../../src/pipeline';
import assert from 'node:assert/strict';
import { PATIENCE_MS, type TestServer } from './server';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What the receiver does with the next request: answer a status, hang, or drop the connection. */
export type Behaviour = { status: number } | 'hang' | 'close';

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Behaviour for each request in turn; once exhausted, `fallback`. */
  script: Behaviour[];
  fallback: Behaviour;
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const hanging: ServerResponse[] = [];
  const r: Receiver = {
    url: '',
    port: 0,
    received: [],
    script: [],
    fallback: { status: 200 },
    waitFor: async (n, timeoutMs = PATIENCE_MS) => {
      const until = Date.now() + timeoutMs;
      while (r.received.length < n) {
        if (Date.now() > until) throw new Error(`receiver got ${r.received.length} of ${n} requests within ${timeoutMs} ms`);
        await sleep(10);
      }
      return r.received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const h of hanging) h.destroy();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const behaviour = r.script.length ? r.script.shift()! : r.fallback;
      r.received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      if (behaviour === 'hang') hanging.push(res);
      else if (behaviour === 'close') req.socket.destroy();
      else res.writeHead(behaviour.status, { 'Content-Type': 'text/plain' }).end(behaviour.status < 300 ? 'ok' : 'nope');
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  r.port = (server.address() as AddressInfo).port;
  r.url = `http://127.0.0.1:${r.port}/hook`;
  return r;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A handler context for `key`, as the pipeline would build it. */
export function ctxFor(emu: Emulator, key: string): Ctx {
  const principal = emu.keys.resolve(key, emu.clock.now());
  return makeCtx(emu, principal, { requestId: 'req_test', apiKey: key, region: principal.workspace.region, sourceIp: '127.0.0.1', transport: 'rest', pathAndQuery: '/' });
}

/** Fires an event through the installed hook inside a write transaction, as a route would. */
export function fire(emu: Emulator, key: string, type: string, subject: Record<string, unknown>, alsoInTx?: (ctx: Ctx) => void): void {
  const ctx = ctxFor(emu, key);
  emu.db.transaction(() => {
    // Tests fire unknown events and odd subjects on purpose (the outbox drops them): untyped here.
    emu.hooks.event!(ctx, type as never, subject as never);
    alsoInTx?.(ctx);
  })();
}

export const taskId = (emu: Emulator, checklistKey: string | null, taskKey: string): number =>
  checklistKey === null
    ? (emu.db.prepare('SELECT id FROM tasks WHERE checklist_id IS NULL AND key = ?').get(taskKey) as { id: number }).id
    : (emu.db.prepare('SELECT t.id FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? AND t.key = ?').get(checklistKey, taskKey) as { id: number }).id;

export const checklistId = (emu: Emulator, key: string): number => (emu.db.prepare('SELECT id FROM checklists WHERE key = ?').get(key) as { id: number }).id;

/** Completes a task in the database the way the task routes will (status, time, actor). */
export function completeInDb(emu: Emulator, id: number, by: number, at = emu.clock.now()): void {
  emu.db.prepare("UPDATE tasks SET status = 'Complete', completed_at = ?, completed_by = ? WHERE id = ?").run(at, by, id);
}

export async function waitUntil<T>(fn: () => T | undefined | false, timeoutMs = PATIENCE_MS, what = 'condition'): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

export function deliveryRows(emu: Emulator): any[] {
  return emu.db.prepare('SELECT d.*, e.event_type, e.body FROM deliveries d JOIN events e ON e.id = d.event_id ORDER BY d.id').all();
}

/* ── through the real routes ─────────────────────────────────────────────── */


/** The control-route side of a test server: subscriptions, the delivery log, pause/resume, settling. */
export function harness(s: TestServer, adminKey = 'acme-admin-key') {
  const control = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${s.us}${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };
  const h = {
    control,
    /** POST /v3/webhooks; answers the subscription id. */
    subscribe: async (body: Record<string, unknown>, key: string = adminKey, base?: string): Promise<string> => {
      const r = await s.api(key, 'POST', '/v3/webhooks', body, {}, base);
      assert.equal(r.status, 201, r.text);
      return r.body.id;
    },
    /** POST /api/web-hook/subscribe (legacy); answers the subscription id. */
    subscribeLegacy: async (query: Record<string, string>, key: string = adminKey): Promise<string> => {
      const r = await s.api(key, 'POST', `/api/web-hook/subscribe?${new URLSearchParams(query)}`);
      assert.equal(r.status, 200, r.text);
      return r.body.id;
    },
    unsubscribe: async (id: string) => {
      const r = await s.api(adminKey, 'DELETE', `/v3/webhooks/${id}`);
      assert.equal(r.status, 204, r.text);
    },
    /** Deliveries of a subscription, oldest first. */
    deliveries: async (subscription: string): Promise<any[]> =>
      ((await control('GET', `/_emulator/webhooks/deliveries?subscription=${subscription}&limit=1000`)).body.items as any[]).reverse(),
    /** Bodies (parsed) of a subscription's delivered deliveries, oldest first. */
    bodies: async (subscription: string): Promise<any[]> => (await h.deliveries(subscription)).filter((d) => d.status === 'delivered').map((d) => JSON.parse(d.request.body)),
    pause: async () => assert.equal((await control('POST', '/_emulator/webhooks/pause')).status, 200),
    resume: async () => assert.equal((await control('POST', '/_emulator/webhooks/resume')).status, 200),
    /**
     * Waits until every delivery is settled: none pending, none in flight. Events are
     * written with the request that caused them, so after the answer this is exact.
     */
    settle: async (timeoutMs = PATIENCE_MS) => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const st = (await control('GET', '/_emulator/webhooks/sender')).body;
        if (st.pendingDeliveries === 0 && st.inFlight === 0) return;
        if (Date.now() > until) throw new Error(`deliveries not settled: ${JSON.stringify(st)}`);
        await sleep(10);
      }
    },
  };
  return h;
}
