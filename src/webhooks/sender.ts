// The background sender (docs/webhooks.md "Delivery"). It never runs inside an
// API request: the hook only writes outbox rows; the sender is woken after the
// write and also polls, so retries follow the emulator clock (moving the clock
// with /_emulator makes due retries go out). Deliveries stay in SQLite until
// delivered, failed or cancelled, so a restart resumes them.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { createHmac } from 'node:crypto';
import { builtin } from '../lazy';
import { ClockWorker } from '../platform/clock-worker';
import type { Emulator } from '../emulator';
import type { Region } from '../context';
import { backoffMs, type ResolvedWebhookOptions } from './options';
import { buildEvent, type EventRow } from './payloads/build';
import { deliveryById, dropPendingDeliveries, dueDeliveries, eventById, markEventBuilt, markEventDropped, recordAttempt, type DeliveryRow } from '../rows/webhook-events';
import { webhookById } from '../rows/webhooks';
import { workspaceById } from '../rows/people';

export type { DeliveryRow };

export interface AttemptResult {
  status?: number;
  error?: string;
  response?: string;
  durationMs: number;
}

export const sign = (secret: string, body: string) => 'sha256=' + createHmac('sha256', secret).update(body, 'utf8').digest('hex');

/** One POST with exact bytes; resolves (never rejects) with the status or the network error. */
export function post(url: string, headers: Record<string, string>, body: string, timeoutMs: number, signal: AbortSignal): Promise<AttemptResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    let done = false;
    const finish = (r: Omit<AttemptResult, 'durationMs'>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ...r, durationMs: Date.now() - started });
    };
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      finish({ error: 'invalid target URL' });
      return;
    }
    const bytes = Buffer.from(body, 'utf8');
    // node:https (and tls under it) is loaded by the first https delivery, not by every start.
    const send = u.protocol === 'https:' ? builtin<typeof import('node:https')>('node:https').request : httpRequest;
    const req = send(u, { method: 'POST', headers: { ...headers, 'Content-Length': String(bytes.length) }, agent: false, signal });
    const timer = setTimeout(() => {
      finish({ error: `timed out after ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) => finish({ error: signal.aborted ? 'emulator stopped' : e.code ? `${e.code}: ${e.message}` : e.message }));
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size < 2048) chunks.push(c);
        size += c.length;
      });
      res.on('end', () => finish({ status: res.statusCode, response: Buffer.concat(chunks).toString('utf8').slice(0, 2048) }));
      res.on('error', (e) => finish({ status: res.statusCode, error: e.message }));
      res.on('aborted', () => finish({ status: res.statusCode, error: 'connection closed while reading the answer' }));
    });
    req.end(bytes);
  });
}

export class WebhookSender extends ClockWorker {
  private readonly inFlight = new Map<number, Promise<void>>();
  private readonly abort = new AbortController();

  constructor(
    private readonly emu: Emulator,
    readonly options: ResolvedWebhookOptions,
  ) {
    super(options.pollMs);
  }

  // pause() (POST /_emulator/webhooks/pause): events stay `pending` and unbuilt, deliveries
  // stay `pending`; a request already in flight finishes. Lets a test decide exactly what
  // state an event is processed in (the 6.3 drop rule).

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /** Stops sending; requests in flight are aborted and their deliveries stay pending for the next start. */
  async stop(): Promise<void> {
    this.halt();
    this.abort.abort();
    await Promise.all(this.inFlight.values());
  }

  /** Resolves when nothing is due or in flight (tests). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight.values());
  }

  private urls(workspaceId: number) {
    const region: Region = workspaceById(this.emu.db, workspaceId)?.region ?? 'US';
    return { appUrl: this.emu.baseUrls[region] };
  }

  tick(): void {
    if (this.stopped || this.paused || !this.emu.db.open) return;
    const room = this.options.concurrency - this.inFlight.size;
    if (room <= 0) return;
    const now = this.emu.clock.now();
    const due = dueDeliveries(this.emu.db, now, room + this.inFlight.size)
      .filter((d) => !this.inFlight.has(d.id))
      .slice(0, room);
    for (const d of due) {
      const p = this.attempt(d)
        .catch((e) => this.emu.log(`webhooks: delivery ${d.key} failed unexpectedly: ${e instanceof Error ? e.stack : String(e)}`))
        .finally(() => {
          this.inFlight.delete(d.id);
          if (!this.stopped) this.kick();
        });
      this.inFlight.set(d.id, p);
    }
  }

  /** Builds an event's body now rather than when its first delivery is due (new_checklist: install.ts). */
  buildNow(eventId: number): void {
    this.processEvent(eventId);
  }

  /** Builds the event's body the first time any of its deliveries is due (once per event). */
  private processEvent(eventId: number): EventRow {
    const db = this.emu.db;
    return db.transaction(() => {
      const e = eventById(db, eventId)!;
      if (e.state !== 'pending') return e;
      const built = buildEvent(db, this.urls(e.workspace_id), e);
      const now = this.emu.clock.now();
      if ('drop' in built) {
        markEventDropped(db, e.id, built.drop, now);
        dropPendingDeliveries(db, e.id, built.drop);
      } else {
        markEventBuilt(db, e.id, built.body, now);
      }
      return eventById(db, eventId)!;
    })();
  }

  private async attempt(d: DeliveryRow): Promise<void> {
    const db = this.emu.db;
    const e = this.processEvent(d.event_id);
    if (e.state !== 'built' || e.body === null) return;
    const secret = d.webhook_id === null ? null : (webhookById(db, d.webhook_id)?.secret ?? null);
    const headers: Record<string, string> = {
      'Content-Type': 'application/json; charset=utf-8',
      'SVC-Event': e.event_type,
      'User-Agent': 'wfe-webhooks/0.1',
    };
    if (secret) headers['SVC-Signature'] = sign(secret, e.body);
    const at = this.emu.clock.now();
    const r = await post(d.target_url, headers, e.body, this.options.timeoutMs, this.abort.signal);
    if (this.stopped || !db.open) return; // stays pending; sent after the next start
    this.record(d.id, at, headers, r);
  }

  private record(id: number, at: number, headers: Record<string, string>, r: AttemptResult): void {
    const db = this.emu.db;
    db.transaction(() => {
      const d = deliveryById(db, id);
      if (!d) return;
      const attempts = d.attempts + 1;
      const log = JSON.parse(d.attempt_log) as unknown[];
      log.push({ at, status: r.status ?? null, error: r.error ?? null, durationMs: r.durationMs });
      const ok = r.status !== undefined && r.status >= 200 && r.status < 300 && !r.error;
      const now = this.emu.clock.now();
      let status = d.status;
      let next = d.next_attempt_at;
      if (d.status === 'pending') {
        if (ok) status = 'delivered';
        else if (attempts >= this.options.maxAttempts) status = 'failed';
        else next = now + backoffMs(this.options.retryBaseMs, attempts);
      }
      const error = r.error ?? (ok ? null : `answered ${r.status}`);
      recordAttempt(db, id, { status, attempts, next, lastStatus: r.status ?? null, error, response: r.response ?? null, headers: JSON.stringify(headers), log: JSON.stringify(log), now });
    })();
  }
}
