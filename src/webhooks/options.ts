// Delivery settings (docs/webhooks.md "Retries"). Defaults are the documented
// schedule; tests and `wfe serve` may shorten them.
import type { WebhookOptions } from '../emulator';

export type { WebhookOptions };

export const DEFAULTS = {
  timeoutMs: 10_000,
  retryBaseMs: 10_000,
  maxAttempts: 8,
  pollMs: 100,
  processDelayMs: 0,
  /** Attempts in flight at once, all targets together. */
  concurrency: 64,
  /** Attempts in flight at once to one target URL while it answers 2xx. */
  perTargetConcurrency: 4,
  /** Attempts in flight at once to one target URL after it failed (until an attempt succeeds). */
  failingTargetConcurrency: 1,
  /** Slots that failing targets may hold together: the rest stay free for healthy targets. */
  failingShare: 0.5,
  /** Real-time pause before a failing target's next attempt: doubled per further failure, up to failingHoldMaxMs. */
  failingHoldMs: 100,
  failingHoldMaxMs: 1000,
} as const;

export type ResolvedWebhookOptions = typeof DEFAULTS & { forwardEvents?: string };

export function resolveOptions(o: WebhookOptions = {}): ResolvedWebhookOptions {
  const out: Record<string, unknown> = { ...DEFAULTS };
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  // A slot count under 1 would never send: read as 1 (slots are whole).
  for (const k of ['concurrency', 'perTargetConcurrency', 'failingTargetConcurrency'] as const) {
    const n = Number(out[k]);
    out[k] = Number.isFinite(n) ? Math.max(1, Math.floor(n)) : DEFAULTS[k];
  }
  return out as ResolvedWebhookOptions;
}

/** Wait before attempt n+1 after n failed attempts: base, 2×base, 4×base, ... */
export const backoffMs = (base: number, failedAttempts: number) => base * 2 ** (failedAttempts - 1);
