import type { Db } from './store/open';
import type { Clock } from './clock';
import type { MemberRow, WorkspaceRow, KeyRow } from './rows/people';
import type { EventSubjects, HookEvent } from './event-subjects';

export type Region = 'US' | 'EU';

/** Who a request acts as (spec v3 5.1, 5.3, 5.9), or who a background worker acts for. */
export interface Actor {
  kind: 'member' | 'workspace';
  /** The acting member; for a workspace key, the workspace's anonymous member. */
  member: MemberRow;
  /** The request's API key; null for a background worker, which has none. */
  key: KeyRow | null;
  isAdmin: boolean;
  rights: ReadonlySet<string>;
}

/** The actor of a request: it always has its key (src/domain/auth.ts resolves it). */
export type KeyActor = Actor & { key: KeyRow };

/** Where a change comes from: a request of one of the transports, or a background worker with no request behind it. */
export type Via = 'rest' | 'mcp' | 'legacy' | 'scheduler' | 'upgrade worker';

/** Hooks the domain calls without knowing who listens (webhook outbox, journal). */
export interface DomainHooks {
  /** Called inside the write transaction that caused the event, with that event's subject (src/event-subjects.ts). */
  event?: <E extends HookEvent>(ctx: Ctx, eventType: E, subject: EventSubjects[E]) => void;
  /** The upgrade worker (src/upgrades/install.ts): its queue delay, and a wake-up after queueing. */
  upgrades?: { delayMs: number; queued(): void };
}

/** Everything a handler may use. Handlers never see a Request. */
export interface Ctx {
  db: Db;
  clock: Clock;
  requestId: string;
  workspace: WorkspaceRow;
  actor: Actor;
  /** IANA zone for text written at change time (spec v3 4.1 rule 7). */
  timeZone: string;
  /** Regional base URL of the workspace, e.g. http://127.0.0.1:8787 */
  baseUrl: string;
  /** Address of the app links (`url` properties). */
  appUrl: string;
  transport: Via;
  hooks: DomainHooks;
  now(): number;
  /**
   * Said by a read whose answer depends on the time: the answer it gives, worked out at the
   * instant now() gave, stays the same until this instant (exclusive) as the clock runs on.
   * The request path may then answer the same read from memory until then
   * (src/pipeline/answer-memo.ts); nothing else listens.
   */
  holdsUntil(instant: number): void;
}

/** What a context is made from besides the call: the emulator's database, clock, addresses and hooks. */
export interface CtxHost {
  db: Db;
  clock: Clock;
  baseUrls: Record<Region, string>;
  hooks: DomainHooks;
}

export interface CtxFor {
  requestId: string;
  workspace: WorkspaceRow;
  actor: Actor;
  /** The zone, or how to resolve it when a handler first reads it (src/pipeline/steps.ts says why). */
  timeZone: string | (() => string);
  transport: Via;
  /** Default: the emulator's (the upgrade worker passes none: an upgrade fires no event, 6.3). */
  hooks?: DomainHooks;
}

/** The one way a Ctx is made, for a request (src/pipeline/steps.ts) and for the background workers alike. */
export function makeContext(host: CtxHost, c: CtxFor): Ctx {
  return new Context(host, c);
}

/**
 * A class, not an object literal: a literal with a getter defines the accessor on every call,
 * and made one of the dearest lines of a cheap read (measured ~2% of its CPU).
 */
class Context implements Ctx {
  readonly db: Db;
  readonly clock: Clock;
  readonly requestId: string;
  readonly workspace: WorkspaceRow;
  readonly actor: Actor;
  readonly baseUrl: string;
  readonly appUrl: string;
  readonly transport: Via;
  readonly hooks: DomainHooks;
  private zone: string | (() => string);

  constructor(host: CtxHost, c: CtxFor) {
    const base = host.baseUrls[c.workspace.region];
    this.db = host.db;
    this.clock = host.clock;
    this.requestId = c.requestId;
    this.workspace = c.workspace;
    this.actor = c.actor;
    this.zone = c.timeZone;
    this.baseUrl = base;
    this.appUrl = base;
    this.transport = c.transport;
    this.hooks = c.hooks ?? host.hooks;
  }

  get timeZone(): string {
    const zone = this.zone;
    return typeof zone === 'string' ? zone : (this.zone = zone());
  }

  now(): number {
    return this.clock.now();
  }

  holdsUntil(_instant: number): void {}
}

/** A worker acting as a member (their rights and role as stored), with no key. */
export const memberActor = (member: MemberRow, rights: ReadonlySet<string>): Actor => ({ kind: 'member', member, key: null, isAdmin: member.role === 'Administrator', rights });

/** A worker acting as the workspace (spec v3 5.9): its anonymous member, no rights of its own, no key. */
export const workspaceActor = (anonymous: MemberRow): Actor => ({ kind: 'workspace', member: anonymous, key: null, isAdmin: false, rights: new Set() });
