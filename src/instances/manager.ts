// The instances of one emulator (docs/instances.md): each a whole Emulator of its own
// (database, clock, budgets, idempotency, journal, webhooks, faults, workers, control
// routes) on fresh ports of this process. Nothing is shared but the process, the code and
// the prepared fixture images; deleting one stops its workers, closes its ports and drops
// every reference to it.
import { randomUUID } from 'node:crypto';
import { ApiError } from '../errors';
import { Clock, iso } from '../clock';
import type { Emulator } from '../emulator';
import type { Region } from '../context';
import { createFetch, type AppExtensions } from '../transports/http/app';
import { listen, type Running } from '../transports/http/server';
import { preparedImage } from './image';
import { INSTANCE_DEFAULTS, type InstanceSettings, type MakeEmulator } from './settings';
import type { CreateInput } from './input';
import type { InstanceDescription } from '../public/types';

export type { InstanceDescription };

export interface Instance {
  readonly id: string;
  readonly emu: Emulator;
  readonly createdAt: number;
  lastRequestAt: number;
  /** Answers without a socket (the library's instance fetch). */
  fetch(req: Request, region: Region): Promise<Response>;
  close(): Promise<void>;
}

/** Addresses of an instance that does not listen: the in-process fetch routes by host. */
const internalUrls = (id: string): Record<Region, string> => ({ US: `http://us.${id}.wfe.internal`, EU: `http://eu.${id}.wfe.internal` });

export class InstanceManager {
  readonly ttlMs: number;
  readonly max: number;
  private readonly items = new Map<string, Instance>();
  /** Creates under way: they hold a place under the cap until they finish. */
  private pending = 0;
  private closed = false;
  private readonly reaper: NodeJS.Timeout;

  constructor(
    private readonly parent: Emulator,
    private readonly settings: InstanceSettings = {},
    private readonly make: MakeEmulator,
  ) {
    this.ttlMs = settings.ttlMs ?? INSTANCE_DEFAULTS.ttlMs;
    this.max = settings.max ?? INSTANCE_DEFAULTS.max;
    // Checked a few times per TTL, at most every 30 s; unref'd: it never keeps the process alive.
    this.reaper = setInterval(() => void this.reap(), Math.max(10, Math.min(this.ttlMs / 4, 30_000)));
    this.reaper.unref();
  }

  get size(): number {
    return this.items.size;
  }

  list(): InstanceDescription[] {
    return [...this.items.values()].map((i) => this.describe(i));
  }

  has(id: string): boolean {
    return this.items.has(id);
  }

  get(id: string): Instance {
    const i = this.items.get(id);
    if (!i) throw new ApiError(404, 'INSTANCE_NOT_FOUND', `No instance ${id} (it may have been deleted, or reaped after ${Math.round(this.ttlMs / 1000)} s without a request).`);
    return i;
  }

  describe(i: Instance): InstanceDescription {
    const urls = i.emu.baseUrls;
    return {
      id: i.id,
      fixture: i.emu.fixtureName,
      baseUrls: { US: urls.US, EU: urls.EU },
      mcpUrls: { US: `${urls.US}/mcp`, EU: `${urls.EU}/mcp` },
      createdAt: iso(i.createdAt)!,
      lastRequestAt: iso(i.lastRequestAt)!,
      expiresAt: iso(i.lastRequestAt + this.ttlMs)!,
    };
  }

  async create(input: CreateInput = {}): Promise<Instance> {
    if (this.closed) throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'The emulator is stopping: no new instances.', {}, { 'Retry-After': '1' });
    if (this.items.size + this.pending >= this.max) {
      const retry = this.retryAfterSeconds();
      throw new ApiError(
        503,
        'TOO_MANY_INSTANCES',
        `${this.max} instances are running, the most this emulator allows (--max-instances). Delete one, or retry after ${retry} s, when the idlest one is reaped.`,
        { retryAfterSeconds: retry },
        { 'Retry-After': String(retry) },
      );
    }
    this.pending++;
    try {
      return await this.start(input);
    } finally {
      this.pending--;
    }
  }

  private async start(input: CreateInput): Promise<Instance> {
    const id = randomUUID();
    const clock = new Clock();
    if (input.clock?.now !== undefined || input.clock?.frozen) clock.set(input.clock.now ?? clock.now(), input.clock.frozen === true);
    const p = this.parent.options;
    const fixture = input.fixture ?? this.parent.fixture;
    const listening = this.settings.listen !== false;
    // The server's own settings (admin token, body limit, webhook timing, contract check, ...),
    // with a database, clock and budgets of the instance's own.
    const { emu, ext } = this.make({
      ...p,
      db: undefined,
      image: preparedImage(fixture, clock.now()),
      fixture,
      clock,
      standardBudget: input.budgets?.standard ?? p.standardBudget,
      cheapBudget: input.budgets?.cheap ?? p.cheapBudget,
      baseUrls: listening ? undefined : internalUrls(id),
      instances: false,
    });
    let running: Running | undefined;
    if (listening) {
      try {
        running = await listen(emu, { host: this.settings.host, portUs: 0, portEu: 0, extensions: ext });
      } catch (e) {
        await emu.close();
        const why = e instanceof Error ? ((e as NodeJS.ErrnoException).code ?? e.message) : String(e);
        throw new ApiError(503, 'INSTANCE_START_FAILED', `The instance could not listen on ${this.settings.host ?? '127.0.0.1'} (${why}). Nothing was kept; try again.`, {}, { 'Retry-After': '1' });
      }
    }
    const instance = this.register(id, emu, ext, running);
    if (this.closed) {
      await this.delete(id);
      throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'The emulator is stopping: no new instances.', {}, { 'Retry-After': '1' });
    }
    return instance;
  }

  private register(id: string, emu: Emulator, ext: AppExtensions, running: Running | undefined): Instance {
    let handlers: Record<Region, ReturnType<typeof createFetch>> | undefined;
    let closing: Promise<void> | undefined;
    const now = Date.now();
    const instance: Instance = {
      id,
      emu,
      createdAt: now,
      lastRequestAt: now,
      fetch: async (req, region) => {
        if (closing) throw new Error(`Instance ${id} is deleted.`);
        instance.lastRequestAt = Date.now();
        handlers ??= { US: createFetch(emu, 'US', ext), EU: createFetch(emu, 'EU', ext) };
        return handlers[region](req, '127.0.0.1');
      },
      close: () =>
        (closing ??= (async () => {
          await running?.close();
          await emu.close();
          handlers = undefined;
        })()),
    };
    // Every request on either port keeps the instance alive (the TTL counts from the last one).
    for (const server of Object.values(running?.servers ?? {})) server.on('request', () => (instance.lastRequestAt = Date.now()));
    this.items.set(id, instance);
    return instance;
  }

  /** Stops an instance: its workers end (webhook deliveries in flight are aborted), its ports close, its database goes. */
  async delete(id: string): Promise<void> {
    const i = this.get(id);
    this.items.delete(id);
    await i.close();
  }

  /** Stops every instance idle for longer than the TTL. */
  async reap(now = Date.now()): Promise<string[]> {
    const idle = [...this.items.values()].filter((i) => now - i.lastRequestAt >= this.ttlMs).map((i) => i.id);
    await Promise.all(idle.map((id) => this.delete(id).catch((e) => this.parent.log(`wfe: stopping idle instance ${id} failed: ${e instanceof Error ? e.message : String(e)}`))));
    return idle;
  }

  /** Seconds until the idlest instance is reaped (at least 1). */
  private retryAfterSeconds(): number {
    const soonest = Math.min(...[...this.items.values()].map((i) => i.lastRequestAt + this.ttlMs));
    return Number.isFinite(soonest) ? Math.max(1, Math.ceil((soonest - Date.now()) / 1000)) : 1;
  }

  /** With the emulator: stops the reaper and every instance. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.reaper);
    await Promise.all([...this.items.keys()].map((id) => this.delete(id)));
  }
}
