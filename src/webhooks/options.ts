// Delivery settings (docs/webhooks.md "Retries"). Defaults are the documented
// schedule; tests and `wfe serve` may shorten them.
export interface WebhookOptions {
  /** Real milliseconds to wait for the receiver's answer (connect + headers + body). Default 10 s. */
  timeoutMs?: number;
  /** Wait before the first retry; doubled for each further one. Emulator clock. Default 10 s. */
  retryBaseMs?: number;
  /** Attempts in all before a delivery is marked failed. Default 8. */
  maxAttempts?: number;
  /** How often (real ms) the sender looks for due deliveries; it is also woken after every event. Default 100. */
  pollMs?: number;
  /** Emulator-clock delay between an event and its processing ("shortly after", spec v3 6.3). Default 0. */
  processDelayMs?: number;
  /** Deliveries in flight at once. Default 8. */
  concurrency?: number;
  /** Emulator only: send every event of every workspace to this URL without subscribing. */
  forwardEvents?: string;
}

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
