// The library API (`import { startEmulator } from 'wfe'`, README "Use it in CI"):
// an emulator inside the test process, with an in-process fetch, reset, the clock,
// fault rules, the journal and webhook deliveries, without HTTP plumbing of its own.
import { Clock } from '../clock';
import { createEmulator } from '../start';
import { createFetch, guardOf } from '../transports/http/app';
import { listen, type Running } from '../transports/http/server';
import { resetToFixture } from '../platform/database';
import { fixtureKeys } from '../fixtures/keys';
import { isDropped, requestIdFrom } from '../transports/web/respond';
import { KeyAdmin } from '../control/keys';
import { addPort, edgePolicy, refusalParts } from '../transports/http/origin';
import { listDeliveries } from '../webhooks/log';
import { senderOf } from '../webhooks/install';
import type { Emulator } from '../emulator';
import { instancesOf } from '../instances/install';
import { checkCreate } from '../instances/input';
import type { DeliveryFilter, EmbeddedEmulator, EmulatorClock, EmulatorInstance, EmulatorInstances, FaultRuleInput, InstanceOptions, Region, StartEmulatorOptions } from '../public/types';
import { dueDeliveryCount } from '../rows/webhook-deliveries';

export type * from '../public/types';
export { FixtureError } from '../fixtures/errors';

const INTERNAL: Record<Region, string> = { US: 'http://us.wfe.internal', EU: 'http://eu.wfe.internal' };

function toMs(t: string | number | Date, what: string): number {
  const ms = t instanceof Date ? t.getTime() : typeof t === 'number' ? t : Date.parse(t);
  if (!Number.isFinite(ms)) throw new TypeError(`${what} is not a date-time: ${String(t)}`);
  return ms;
}

export async function startEmulator(options: StartEmulatorOptions = {}): Promise<EmbeddedEmulator> {
  const clock = new Clock();
  if (options.clock?.start !== undefined || options.clock?.frozen) clock.set(options.clock?.start === undefined ? Date.now() : toMs(options.clock.start, 'clock.start'), options.clock?.frozen === true);
  const listening = options.listen !== false;
  const { emu, ext } = createEmulator({
    db: options.db,
    fixture: options.fixture ?? 'demo',
    standardBudget: options.budgets?.standard,
    cheapBudget: options.budgets?.cheap,
    clock,
    webhooks: options.webhooks,
    adminToken: options.adminToken,
    allowOrigins: options.allowOrigins,
    allowHosts: options.allowHosts,
    baseUrls: listening ? undefined : { ...INTERNAL },
    log: options.log ?? (() => {}),
    instances: { ttlMs: options.instances?.ttlMs, max: options.instances?.max, host: options.host, listen: listening },
  });
  let running: Running | undefined;
  if (listening) {
    try {
      running = await listen(emu, { host: options.host, portUs: options.ports?.US ?? 0, portEu: options.ports?.EU ?? 0, extensions: ext });
    } catch (e) {
      await emu.close();
      throw e;
    }
  }
  const urls = { ...emu.baseUrls };
  // The in-process fetch passes the same Host and Origin check as the sockets; its internal
  // base URL (and the listening addresses) count as the emulator's own (docs/security.md).
  const policy = edgePolicy({ bound: options.host, allowHosts: options.allowHosts, allowOrigins: options.allowOrigins, internalHosts: Object.values(INTERNAL).map((u) => new URL(u).hostname) });
  addPort(policy, '');
  const guard = guardOf(ext.chain);
  for (const u of Object.values(urls)) addPort(policy, new URL(u).port);
  // Built on first use: most suites talk over the sockets, and start-up time counts (bench).
  let handlers: Record<Region, ReturnType<typeof createFetch>> | undefined;
  let keys: ReturnType<typeof fixtureKeys> | undefined;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await running?.close();
    await emu.close();
  };
  return {
    urls,
    mcpUrls: { US: `${urls.US}/mcp`, EU: `${urls.EU}/mcp` },
    get keys() {
      return (keys ??= fixtureKeys(emu.fixture, clock.now()));
    },
    fetch: async (input, init) => {
      if (closed) throw new Error('This emulator is closed.');
      const { req, region } = inProcessRequest(input, init, urls);
      const refused = guard({ host: req.headers.get('host'), origin: req.headers.get('origin') }, policy);
      if (refused) {
        const p = refusalParts(refused, new URL(req.url).pathname, requestIdFrom(req.headers.get('x-request-id')));
        return new Response(p.body as string, { status: p.status, headers: p.headers });
      }
      handlers ??= { US: createFetch(emu, 'US', ext), EU: createFetch(emu, 'EU', ext) };
      const res = await handlers[region](req, '127.0.0.1');
      // What a client sees when the server closes the connection without answering (undici).
      if (isDropped(res)) throw new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
      return res;
    },
    reset: async () => {
      resetToFixture(emu.db, emu.fixture, emu.clock.now());
      emu.limiter.clear();
      emu.faults.clear();
    },
    clock: clockOf(emu),
    faults: {
      add: (rule: FaultRuleInput) => emu.faults.add(rule),
      list: () => emu.faults.list(),
      remove: (id: string) => emu.faults.remove(id),
      clear: () => emu.faults.clear(),
    },
    apiKeys: apiKeysOf(emu),
    journal: (limit = emu.journal.capacity) => emu.journal.last(limit),
    deliveries: (filter: DeliveryFilter = {}) => listDeliveries(emu.db, filter) as ReturnType<EmbeddedEmulator['deliveries']>,
    settleWebhooks: () => settle(emu),
    instances: libraryInstances(emu),
    close,
    [Symbol.asyncDispose]: close,
  };
}

function libraryInstances(emu: Emulator): EmulatorInstances {
  const m = instancesOf(emu)!;
  return {
    create: async (options: InstanceOptions = {}): Promise<EmulatorInstance> => {
      const now = options.clock?.now;
      // The same checks as POST /_emulator/instances: the instant goes as ISO text.
      const raw = { ...options, clock: options.clock && { ...options.clock, now: now === undefined || typeof now === 'string' ? now : new Date(toMs(now, 'clock.now')).toISOString() } };
      const instance = await m.create(checkCreate(raw));
      const urls = { ...instance.emu.baseUrls };
      return {
        ...m.describe(instance),
        fetch: async (input, init) => {
          const { req, region } = inProcessRequest(input, init, urls);
          const res = await instance.fetch(req, region);
          if (isDropped(res)) throw new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
          return res;
        },
        delete: async () => {
          if (m.has(instance.id)) await m.delete(instance.id);
        },
      };
    },
    list: () => m.list(),
    delete: async (id: string) => {
      if (!m.has(id)) return false;
      await m.delete(id);
      return true;
    },
  };
}

function inProcessRequest(input: string | URL | Request, init: RequestInit | undefined, urls: Record<Region, string>): { req: Request; region: Region } {
  const raw = input instanceof Request ? input.url : String(input);
  const url = new URL(raw, urls.US);
  const eu = new URL(urls.EU);
  const region: Region = url.host === eu.host || url.hostname === new URL(INTERNAL.EU).hostname ? 'EU' : 'US';
  const req = input instanceof Request ? new Request(url, init ? new Request(input, init) : input) : new Request(url, init);
  return { req, region };
}

/** The same rules as /_emulator/keys; a refusal throws an Error carrying the API's `status` and `code`. */
function apiKeysOf(emu: Emulator): EmbeddedEmulator['apiKeys'] {
  const admin = () => new KeyAdmin(emu.db, () => emu.clock.now());
  return {
    list: (workspace) => admin().list(workspace),
    get: (id) => admin().get(id),
    create: (input) => admin().create(input),
    update: (id, input) => admin().update(id, input),
    revoke: (id, input) => admin().revoke(id, input ?? {}),
  };
}

function clockOf(emu: Emulator): EmulatorClock {
  const c = emu.clock;
  return {
    now: () => new Date(c.now()),
    set: (to, o) => {
      c.set(toMs(to, 'clock.set'), o?.frozen ?? c.frozen);
      return new Date(c.now());
    },
    advance: (by) => {
      const ms = typeof by === 'number' ? by : (by.days ?? 0) * 86_400_000 + (by.hours ?? 0) * 3_600_000 + (by.minutes ?? 0) * 60_000 + (by.seconds ?? 0) * 1000;
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('clock.advance takes 0 or more milliseconds (the emulator clock does not go back; use clock.set).');
      c.advance(ms);
      senderOf(emu)?.kick();
      return new Date(c.now());
    },
    freeze: (at) => {
      c.set(at === undefined ? c.now() : toMs(at, 'clock.freeze'), true);
      return new Date(c.now());
    },
    unfreeze: () => {
      c.set(c.now(), false);
      return new Date(c.now());
    },
    get frozen() {
      return c.frozen;
    },
  };
}

async function settle(emu: Emulator): Promise<void> {
  const sender = senderOf(emu);
  if (!sender) return;
  for (let i = 0; i < 1000; i++) {
    await new Promise((r) => setImmediate(r));
    sender.releaseHolds(); // due means due: a failing target's backoff hold does not delay a settle
    sender.tick();
    await sender.idle();
    if (!emu.db.open || dueDeliveryCount(emu.db, emu.clock.now()) === 0) return;
  }
}
