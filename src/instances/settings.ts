// Limits of /_emulator/instances (docs/instances.md "Limits"): `wfe serve
// --instance-ttl --max-instances`, the library's `instances` option.

export interface InstanceSettings {
  /** An instance with no request for this long (real ms) is stopped. Default 30 minutes. */
  ttlMs?: number;
  /** Instances alive at once; one more is refused with 503 and Retry-After. Default 64. */
  max?: number;
  /** Address instances bind (the server's own --host). Default 127.0.0.1. */
  host?: string;
  /** false: instances answer only through the library's in-process fetch (no ports). Default true. */
  listen?: boolean;
}

export const INSTANCE_DEFAULTS = { ttlMs: 30 * 60_000, max: 64 } as const;

/**
 * `--instance-ttl`: seconds, or a number with a unit (500ms, 90s, 30m, 2h).
 * Returns milliseconds, or undefined when the text is not a duration.
 */
export function parseDuration(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(text);
  if (!m) return undefined;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's').toLowerCase() as 'ms' | 's' | 'm' | 'h'];
  const ms = Math.round(Number(m[1]) * unit);
  return ms >= 1 && Number.isSafeInteger(ms) ? ms : undefined;
}
