import type { Db } from './store/open';
import type { Clock } from './clock';
import type { MemberRow, WorkspaceRow, KeyRow } from './rows/people';

export type Region = 'US' | 'EU';

/** Who a request acts as (spec v3 5.1, 5.3, 5.9). */
export interface Actor {
  kind: 'member' | 'workspace';
  /** The acting member; for a workspace key, the workspace's anonymous member. */
  member: MemberRow;
  key: KeyRow;
  isAdmin: boolean;
  rights: ReadonlySet<string>;
}

/** Hooks the domain calls without knowing who listens (webhook outbox, journal). */
export interface DomainHooks {
  /** Called inside the write transaction that caused the event. */
  event?: (ctx: Ctx, eventType: string, subject: Record<string, unknown>) => void;
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
  transport: 'rest' | 'mcp' | 'legacy';
  hooks: DomainHooks;
  now(): number;
}
