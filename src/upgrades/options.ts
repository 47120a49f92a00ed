// Upgrade worker settings (docs/upgrades.md "The worker").
export interface UpgradeOptions {
  /**
   * Emulator-clock wait between queueing a rebuild and its being due. Default 60 000: the
   * Retry-After the 202 gives (spec v3 8), so a client that waits as told finds it done, and a
   * test moves the clock instead of waiting. 0: due at the next poll.
   */
  delayMs?: number;
  /** How often (real ms) the worker looks for due rebuilds; it is also woken after every queueing. Default 100. */
  pollMs?: number;
}

export interface ResolvedUpgradeOptions {
  delayMs: number;
  pollMs: number;
}

export const DEFAULT_DELAY_MS = 60_000;

export function resolveUpgradeOptions(o: UpgradeOptions = {}, env: NodeJS.ProcessEnv = process.env): ResolvedUpgradeOptions {
  const fromEnv = env.WFE_UPGRADE_DELAY_MS !== undefined && /^\d+$/.test(env.WFE_UPGRADE_DELAY_MS) ? Number(env.WFE_UPGRADE_DELAY_MS) : undefined;
  return { delayMs: o.delayMs ?? fromEnv ?? DEFAULT_DELAY_MS, pollMs: o.pollMs ?? 100 };
}
