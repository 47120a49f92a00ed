// Rate budgets (spec v3 8): per workspace, fixed windows starting on the hour UTC,
// standard and cheap counted separately. Counters live in memory (no SQLite write
// per request); platform/budget-store.ts saves them every few seconds.
import { ApiError } from '../errors';
import type { Budget } from '../operations/define';
import { HOUR_MS } from '../clock';


export interface BudgetState {
  bucket: Budget;
  limit: number;
  remaining: number;
  /** Unix seconds when the window ends. */
  reset: number;
}

export class RateLimiter {
  private counters = new Map<string, { window: number; used: number }>();
  /** Bumped on every change, so persistence writes only when something moved. */
  version = 0;

  constructor(readonly limits: Record<Budget, number>) {
    for (const [bucket, n] of Object.entries(limits)) {
      if (!Number.isInteger(n) || n < 1) throw new Error(`The ${bucket} budget must be a whole number of 1 or more requests per hour (got ${n}).`);
    }
  }

  /** Charges one request; throws 429 RATE_LIMIT_EXCEEDED (with headers) when spent. */
  charge(workspaceId: number, bucket: Budget, now: number): BudgetState {
    const window = Math.floor(now / HOUR_MS) * HOUR_MS;
    const id = `${workspaceId}:${bucket}`;
    let c = this.counters.get(id);
    if (!c || c.window !== window) {
      c = { window, used: 0 };
      this.counters.set(id, c);
    }
    const limit = this.limits[bucket];
    const reset = (window + HOUR_MS) / 1000;
    if (c.used >= limit) {
      const retryAfterSeconds = Math.max(1, Math.ceil((window + HOUR_MS - now) / 1000));
      const state = { bucket, limit, remaining: 0, reset };
      throw new ApiError(
        429,
        'RATE_LIMIT_EXCEEDED',
        `The ${bucket} rate budget of ${limit} requests per hour is spent. It refills at ${new Date(window + HOUR_MS).toISOString()}.`,
        { retryAfterSeconds },
        { ...budgetHeaders(state), 'Retry-After': String(retryAfterSeconds) },
      );
    }
    c.used++;
    this.version++;
    return { bucket, limit, remaining: limit - c.used, reset };
  }

  /** For persistence across restarts: the counters of the current windows. */
  snapshot(): Record<string, { window: number; used: number }> {
    return Object.fromEntries(this.counters);
  }
  restore(s: Record<string, { window: number; used: number }>): void {
    for (const [k, v] of Object.entries(s)) {
      if (v && Number.isFinite(v.window) && Number.isInteger(v.used) && v.used >= 0) this.counters.set(k, { window: v.window, used: v.used });
    }
  }
  clear(): void {
    this.counters.clear();
    this.version++;
  }
}

export const budgetHeaders = (s: BudgetState): Record<string, string> => addBudgetHeaders(s, {});

/** The budget headers written into `headers` (the request path's own object: no copy per request). */
export function addBudgetHeaders(s: BudgetState, headers: Record<string, string>): Record<string, string> {
  headers['X-RateLimit-Bucket'] = s.bucket;
  headers['X-RateLimit-Limit'] = String(s.limit);
  headers['X-RateLimit-Remaining'] = String(s.remaining);
  headers['X-RateLimit-Reset'] = String(s.reset);
  return headers;
}

/**
 * Invalid, revoked or expired keys: after 20 refusals from one source address
 * within a minute, that address is answered 429 before the key is checked until
 * the minute is up (spec v3 8).
 */
export class KeyThrottle {
  private byIp = new Map<string, { start: number; count: number }>();
  constructor(private readonly max = 20, private readonly windowMs = 60_000) {}

  check(ip: string, now: number): void {
    const e = this.byIp.get(ip);
    if (!e) return;
    if (now - e.start >= this.windowMs) {
      this.byIp.delete(ip);
      return;
    }
    if (e.count >= this.max) {
      const retryAfterSeconds = Math.max(1, Math.ceil((e.start + this.windowMs - now) / 1000));
      throw new ApiError(
        429,
        'RATE_LIMIT_EXCEEDED',
        `Too many requests with invalid, revoked or expired API keys from this address. Try again in ${retryAfterSeconds} seconds.`,
        { retryAfterSeconds },
        { 'Retry-After': String(retryAfterSeconds) },
      );
    }
  }

  record(ip: string, now: number): void {
    const e = this.byIp.get(ip);
    if (!e || now - e.start >= this.windowMs) this.byIp.set(ip, { start: now, count: 1 });
    else e.count++;
    if (this.byIp.size > 100_000) this.byIp.clear(); // bounded memory under a flood of addresses
  }
}
