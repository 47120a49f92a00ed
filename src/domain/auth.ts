// API key resolution (spec v3 5.1-5.3, 7). Keys are stored as SHA-256 digests.
import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors';
import { sha256 } from '../ids';
import type { Db } from '../store/open';
import type { KeyActor } from '../context';
import type { KeyRow, WorkspaceRow } from '../rows/people';
import { keyResolutionStatements } from '../rows/keys';
import { rollbackCount } from '../store/change-signal';
import { countsReader } from '../store/change-counts';
import { familyCounts } from '../store/watched-tables';

export interface Principal {
  workspace: WorkspaceRow;
  actor: KeyActor;
}

export type KeyRefusal = 'MISSING_API_KEY' | 'INVALID_API_KEY' | 'API_KEY_REVOKED' | 'API_KEY_EXPIRED' | 'API_KEY_ACTOR_UNAVAILABLE';

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function parseRights(json: string): Set<string> {
  try {
    const v = JSON.parse(json);
    return new Set(Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);
  } catch {
    return new Set();
  }
}

export class KeyResolver {
  private byHash;
  private workspace;
  private member;

  private readonly counts;
  private readonly families;
  private readonly memory: boolean;

  constructor(private readonly db: Db) {
    // Key, member and workspace rows this connection wrote (the `keys` family count, kept in the
    // process by store/watched-tables.ts; every row on a connection without family counts), its
    // rollbacks and, for a file database, commits by other connections (`wfe mcp` sharing it):
    // when none moved, no key, member or workspace did.
    const s = keyResolutionStatements(db);
    this.byHash = s.byHash;
    this.workspace = s.workspace;
    this.member = s.member;
    this.counts = countsReader(db);
    this.families = familyCounts(db);
    this.memory = db.memory;
  }

  // Hashing the key was ~8% of CPU on cheap reads; integrators reuse a handful of
  // keys, so the digests are remembered (bounded; only digests of sent keys, never stored).
  private digests = new Map<string, string>();
  private digestOf(rawKey: string): string {
    let d = this.digests.get(rawKey);
    if (d === undefined) {
      if (this.digests.size >= 1000) this.digests.clear();
      d = sha256(rawKey);
      this.digests.set(rawKey, d);
    }
    return d;
  }

  // Resolved keys are remembered until a key, member or workspace row changes (measured: the
  // three lookups and the rights parse were ~4% of CPU on cheap reads, ~5% on writes). Only accepted keys are
  // kept; the one check that moves with time alone, expiry, is made again on every use.
  private resolved = new Map<string, Principal>();
  private seenT = -1;
  private seenV = -1;
  private seenR = -1;

  /** Resolves a key or throws the 401 the spec names. */
  /** `missing`: how to tell the caller where the key goes (the header; over stdio, SVC_API_KEY or --key). */
  resolve(rawKey: string | null | undefined, now: number, missing = 'The X-API-KEY header is missing or empty.'): Principal {
    if (rawKey === null || rawKey === undefined || rawKey.trim() === '') {
      throw new ApiError(401, 'MISSING_API_KEY', missing);
    }
    const digest = this.digestOf(rawKey);
    this.refresh();
    const known = this.resolved.get(digest);
    if (known) {
      checkExpiry(known.actor.key, now);
      return known;
    }
    const principal = this.lookup(digest, now);
    if (this.resolved.size >= 1000) this.resolved.clear();
    this.resolved.set(digest, principal);
    return principal;
  }

  /** Forgets the resolved keys when a key, member or workspace row may have changed. */
  private refresh(): void {
    // The keys family's count is kept in the process; a connection without it follows every row.
    const t = this.families ? this.families.keys : this.counts().total;
    const v = this.memory ? 0 : this.counts().version;
    const r = rollbackCount(this.db);
    if (t !== this.seenT || v !== this.seenV || r !== this.seenR) {
      this.resolved.clear();
      this.seenT = t;
      this.seenV = v;
      this.seenR = r;
    }
  }

  private lookup(digest: string, now: number): Principal {
    const key = this.byHash.get(digest);
    if (!key || !timingSafeEqual(Buffer.from(key.key_hash), Buffer.from(digest))) {
      throw new ApiError(401, 'INVALID_API_KEY', 'No workspace has this API key.');
    }
    if (key.revoked_at !== null) {
      throw new ApiError(401, 'API_KEY_REVOKED', `This API key was revoked on ${dayOf(key.revoked_at)}. A revoked key cannot be restored; an Administrator can create a new one.`);
    }
    checkExpiry(key, now);
    const workspace = this.workspace.get(key.workspace_id)!;
    if (key.member_id === null) {
      const anon = this.member.get(workspace.anonymous_member_id ?? -1);
      if (!anon) throw new Error(`workspace ${workspace.id} has no anonymous member`);
      return {
        workspace,
        actor: { kind: 'workspace', member: anon, key, isAdmin: false, rights: new Set() },
      };
    }
    const m = this.member.get(key.member_id);
    if (!m || !m.is_active || m.is_removed || m.role === 'Guest') {
      throw new ApiError(401, 'API_KEY_ACTOR_UNAVAILABLE', 'The member this API key acts as is deactivated, removed or a Guest. An Administrator can edit the key to act as someone else.');
    }
    return {
      workspace,
      actor: { kind: 'member', member: m, key, isAdmin: m.role === 'Administrator', rights: parseRights(m.rights) },
    };
  }
}

/** Expiry ends at the end of that day, UTC. */
function checkExpiry(key: KeyRow, now: number): void {
  if (key.expires_on !== null && now >= Date.parse(`${key.expires_on}T00:00:00Z`) + 86_400_000) {
    throw new ApiError(401, 'API_KEY_EXPIRED', `This API key expired on ${key.expires_on}. An Administrator can create a new key or extend this one.`);
  }
}

/** Refusals that count towards the invalid-key throttle (spec v3 8). */
export const countsTowardThrottle = (code: string): boolean =>
  code === 'INVALID_API_KEY' || code === 'API_KEY_REVOKED' || code === 'API_KEY_EXPIRED';
