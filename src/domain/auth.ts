// API key resolution (spec v3 5.1-5.3, 7). Keys are stored as SHA-256 digests.
import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors';
import { sha256 } from '../ids';
import type { Db } from '../store/open';
import type { KeyActor } from '../context';
import type { KeyRow, WorkspaceRow } from '../rows/people';
import { keyResolutionStatements } from '../rows/keys';
import { declareMemo, memoOn, type Memo } from '../store/memo';

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

const RESOLVED_KEYS = declareMemo({ name: 'resolved API key', reads: ['api_keys', 'workspaces', 'members'] });

export class KeyResolver {
  private byHash;
  private workspace;
  private member;

  // Resolved keys are remembered until a key, member or workspace row may have changed
  // (store/memo.ts: their tables' counts, rollbacks, and another connection's commits to a file): a task's write leaves them standing (measured: the three lookups and the rights parse
  // were ~4% of CPU on cheap reads, ~5% on writes). Only accepted keys are kept; the one check
  // that moves with time alone, expiry, is made again on every use.
  private readonly resolved: Memo<string, Principal>;

  constructor(db: Db) {
    const s = keyResolutionStatements(db);
    this.byHash = s.byHash;
    this.workspace = s.workspace;
    this.member = s.member;
    this.resolved = memoOn(db, RESOLVED_KEYS);
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

  /** Resolves a key or throws the 401 the spec names. */
  /** `missing`: how to tell the caller where the key goes (the header; over stdio, SVC_API_KEY or --key). */
  resolve(rawKey: string | null | undefined, now: number, missing = 'The X-API-KEY header is missing or empty.'): Principal {
    if (rawKey === null || rawKey === undefined || rawKey.trim() === '') {
      throw new ApiError(401, 'MISSING_API_KEY', missing);
    }
    const digest = this.digestOf(rawKey);
    // A refused key throws out of the lookup: only accepted keys are kept.
    const principal = this.resolved.get(digest, () => this.lookup(digest, now));
    checkExpiry(principal.actor.key, now);
    return principal;
  }

  private lookup(digest: string, now: number): Principal {
    const key = this.byHash.get(digest);
    if (!key || !timingSafeEqual(Buffer.from(key.key_hash), Buffer.from(digest))) {
      throw new ApiError(401, 'INVALID_API_KEY', 'No workspace has this API key.');
    }
    return this.principalOf(key, now);
  }

  /**
   * Who a key row acts as, or the 401 the spec names (revoked, expired, actor unavailable).
   * Also the step an OAuth access token takes (src/oauth): its sign-in names a key, or a
   * member or the workspace as a key would, and is judged by the same rules.
   */
  principalOf(key: KeyRow, now: number): Principal {
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
