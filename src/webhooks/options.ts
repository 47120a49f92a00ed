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
  concurrency: 8,
} as const;

export type ResolvedWebhookOptions = typeof DEFAULTS & { forwardEvents?: string };

export function resolveOptions(o: WebhookOptions = {}): ResolvedWebhookOptions {
  const out: Record<string, unknown> = { ...DEFAULTS };
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as ResolvedWebhookOptions;
}

/** Wait before attempt n+1 after n failed attempts: base, 2×base, 4×base, ... */
export const backoffMs = (base: number, failedAttempts: number) => base * 2 ** (failedAttempts - 1);
