// The background sender (docs/webhooks.md "Delivery"). It never runs inside an
// API request: the hook only writes outbox rows; the sender is woken after the
// write and also polls, so retries follow the emulator clock (moving the clock
// with /_emulator makes due retries go out). Deliveries stay in SQLite until
// delivered, failed or cancelled, so a restart resumes them.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { createHmac } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { builtin } from '../lazy';
import { ClockWorker } from '../platform/clock-worker';
import type { Emulator } from '../emulator';
import type { Region } from '../context';
import { backoffMs, type ResolvedWebhookOptions } from './options';
import { buildEvent, type EventRow } from './payloads/build';
import { deliveryById, dropPendingDeliveries, dueDeliveryIds, eventById, markEventBuilt, markEventDropped, recordAttempt, type DeliveryRow } from '../rows/webhook-events';
import { webhookById } from '../rows/webhooks';
import { workspaceById } from '../rows/people';
import { storageCode } from '../errors';

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

/** What the sender knows of one target URL: attempts in flight, and whether its last attempt failed. */
interface TargetState {
  inFlight: number;
  /** Attempts that failed in a row (0: healthy). */
  failures: number;
  /** Real time (ms) before which a failing target gets no new attempt. */
  heldUntil: number;
}

/** Idle targets remembered at most (failing ones: they keep their single slot and hold until an attempt succeeds). */
const MAX_TARGETS = 10_000;
/** Real ms between reads of the due list while deliveries are in flight and none read is left to send. */
const WIDE_READ_MS = 50;
/** Real ms between reads of the due list while what was read waits for busy or held targets. */
const HELD_READ_MS = 1000;
/** Due deliveries read at most at once (ids and targets): beyond them, the oldest go first. */
const MAX_DUE_READ = 50_000;
/** Real ms the sender waits after the disk refused to record a delivery. */
const STORAGE_HOLD_MS = 5000;

const succeeded = (r: AttemptResult) => r.status !== undefined && r.status >= 200 && r.status < 300 && !r.error;

export class WebhookSender extends ClockWorker {
  private readonly inFlight = new Map<number, Promise<void>>();
  private readonly abort = new AbortController();
  /**
   * Fair delivery (docs/webhooks.md "Fair delivery"): slots per target URL, so a target that
   * hangs, refuses or answers 5xx holds its own slots only. In memory: after a restart every
   * target starts healthy again; the deliveries themselves are rows.
   */
  private readonly targets = new Map<string, TargetState>();
  private failingInFlight = 0;
  private lastWideRead = 0;
  /** Real time before which nothing is attempted: the disk refused the last write (docs/reliability.md 10). */
  private storageHeldUntil = 0;

  constructor(
    private readonly emu: Emulator,
    readonly options: ResolvedWebhookOptions,
  ) {
    super(options.pollMs);
    // Every request in flight listens to the one stop signal.
    setMaxListeners(options.concurrency + 16, this.abort.signal);
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

  private target(url: string): TargetState {
    let t = this.targets.get(url);
    if (!t) {
      if (this.targets.size >= MAX_TARGETS) {
        for (const [k, v] of this.targets) {
          if (v.inFlight === 0) {
            this.targets.delete(k);
            break;
          }
        }
      }
      t = { inFlight: 0, failures: 0, heldUntil: 0 };
      this.targets.set(url, t);
    }
    return t;
  }

  /** Failing targets together hold at most this many slots; the rest stay for healthy ones. */
  private get failingCap(): number {
    return Math.max(1, Math.floor(this.options.concurrency * this.options.failingShare));
  }

  private hasSlot(url: string): boolean {
    const t = this.targets.get(url);
    if (!t) return true;
    if (t.failures > 0) return t.inFlight < this.options.failingTargetConcurrency && this.failingInFlight < this.failingCap && Date.now() >= t.heldUntil;
    return t.inFlight < this.options.perTargetConcurrency;
  }

  /**
   * The due deliveries by target, oldest due first, as last read (ids only). Read again when a
   * write added deliveries (kick), or when nothing read is left to send: at once if nothing is
   * in flight, else at most every WIDE_READ_MS (a completion or the poll ticks again). One read
   * is as long as the due backlog, so reading it for every completion was most of the sender's
   * time with 3,000 due deliveries to failing targets.
   */
  private queues = new Map<string, number[]>();
  private dirty = true;

  /** Woken by a write that added deliveries, a replay or a clock move: read the due list again. */
  override kick(): void {
    this.dirty = true;
    super.kick();
  }

  private readDue(now: number): void {
    this.queues = new Map();
    for (const { id, target_url } of dueDeliveryIds(this.emu.db, now, MAX_DUE_READ)) {
      if (this.inFlight.has(id)) continue;
      let q = this.queues.get(target_url);
      if (!q) this.queues.set(target_url, (q = []));
      q.push(id);
    }
    this.dirty = false;
    this.lastWideRead = performance.now();
  }

  /**
   * Nothing read can go now: read the due list again? When what was read is sent, at once if
   * nothing is in flight, else at most every WIDE_READ_MS. When what is left waits for busy or
   * held targets, every HELD_READ_MS (another target's retry coming due is seen that late at
   * most), so a failing target's large backlog is not read at every poll.
   */
  private readAgain(): boolean {
    const since = performance.now() - this.lastWideRead;
    for (const q of this.queues.values()) if (q.length > 0) return since >= HELD_READ_MS;
    return this.inFlight.size === 0 || since >= WIDE_READ_MS;
  }

  /** Ends every target's backoff hold (settleWebhooks: "until no delivery is due"); slots still apply. */
  releaseHolds(): void {
    for (const t of this.targets.values()) t.heldUntil = 0;
  }

  /** Whether some target with a free slot has a due delivery read. */
  private launchable(): boolean {
    for (const [url, q] of this.queues) if (q.length > 0 && this.hasSlot(url)) return true;
    return false;
  }

  tick(): void {
    if (this.stopped || this.paused || !this.emu.db.open || Date.now() < this.storageHeldUntil) return;
    let room = this.options.concurrency - this.inFlight.size;
    if (room <= 0) return;
    const now = this.emu.clock.now();
    if (this.dirty || (!this.launchable() && this.readAgain())) this.readDue(now);
    // Each target with a free slot takes its oldest due delivery in turn, so one target's
    // backlog never stands before another's (docs/webhooks.md "Fair delivery").
    let launched = true;
    while (room > 0 && launched) {
      launched = false;
      for (const [url, q] of this.queues) {
        if (room <= 0) break;
        if (q.length === 0) {
          this.queues.delete(url);
          continue;
        }
        if (!this.hasSlot(url)) continue;
        const d = deliveryById(this.emu.db, q.shift()!);
        // Sent, cancelled or dropped since it was read, or moved back by a failure: not now.
        if (!d || d.status !== 'pending' || d.next_attempt_at > now || this.inFlight.has(d.id)) {
          launched = true;
          continue;
        }
        this.launch(d);
        room--;
        launched = true;
      }
    }
  }

  private launch(d: DeliveryRow): void {
    const t = this.target(d.target_url);
    const failing = t.failures > 0;
    t.inFlight++;
    if (failing) this.failingInFlight++;
    const p = this.attempt(d)
      .then((ok) => {
        if (ok === undefined) return;
        if (ok) t.failures = 0;
        else {
          t.failures++;
          t.heldUntil = Date.now() + Math.min(this.options.failingHoldMaxMs, this.options.failingHoldMs * 2 ** Math.min(t.failures - 1, 20));
        }
      })
      .catch((e) => {
        // A full or read-only disk is reported without a stack: the delivery stays pending and is
        // tried again once the sender's pause is over (not at once: that would spin on a full disk).
        if (storageCode(e)) {
          if (Date.now() >= this.storageHeldUntil) this.emu.log(`webhooks: delivery ${d.key} not recorded (${(e as Error).message}); deliveries stay pending, tried again in ${STORAGE_HOLD_MS / 1000} s`);
          this.storageHeldUntil = Date.now() + STORAGE_HOLD_MS;
        }
        else this.emu.log(`webhooks: delivery ${d.key} failed unexpectedly: ${e instanceof Error ? e.stack : String(e)}`);
      })
      .finally(() => {
        t.inFlight--;
        if (failing) this.failingInFlight--;
        if (t.inFlight === 0 && t.failures === 0) this.targets.delete(d.target_url);
        this.inFlight.delete(d.id);
        if (!this.stopped) super.kick(); // a free slot: no new deliveries, so the list read stays
      });
    this.inFlight.set(d.id, p);
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

  /** One attempt; answers whether the target answered 2xx (undefined: nothing was sent). */
  private async attempt(d: DeliveryRow): Promise<boolean | undefined> {
    const db = this.emu.db;
    const e = this.processEvent(d.event_id);
    if (e.state !== 'built' || e.body === null) return undefined;
    const secret = d.webhook_id === null ? null : (webhookById(db, d.webhook_id)?.secret ?? null);
    const headers: Record<string, string> = {
      'Content-Type': 'application/json; charset=utf-8',
      'SVC-Event': e.event_type,
      'User-Agent': 'wfe-webhooks/0.1',
    };
    if (secret) headers['SVC-Signature'] = sign(secret, e.body);
    const at = this.emu.clock.now();
    const r = await post(d.target_url, headers, e.body, this.options.timeoutMs, this.abort.signal);
    if (this.stopped || !db.open) return undefined; // stays pending; sent after the next start
    this.record(d.id, at, headers, r);
    return succeeded(r);
  }

  private record(id: number, at: number, headers: Record<string, string>, r: AttemptResult): void {
    const db = this.emu.db;
    db.transaction(() => {
      const d = deliveryById(db, id);
      if (!d) return;
      const attempts = d.attempts + 1;
      const log = JSON.parse(d.attempt_log) as unknown[];
      log.push({ at, status: r.status ?? null, error: r.error ?? null, durationMs: r.durationMs });
      const ok = succeeded(r);
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
