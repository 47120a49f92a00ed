// Upgrade worker settings (docs/upgrades.md "The worker").
export interface UpgradeOptions {
  /** Emulator-clock wait between queueing a rebuild and its being due. Default 0 (next poll). */
  delayMs?: number;
  /** How often (real ms) the worker looks for due rebuilds; it is also woken after every queueing. Default 100. */
  pollMs?: number;
}

export interface ResolvedUpgradeOptions {
  delayMs: number;
  pollMs: number;
}

export function resolveUpgradeOptions(o: UpgradeOptions = {}, env: NodeJS.ProcessEnv = process.env): ResolvedUpgradeOptions {
  const fromEnv = env.WFE_UPGRADE_DELAY_MS !== undefined && /^\d+$/.test(env.WFE_UPGRADE_DELAY_MS) ? Number(env.WFE_UPGRADE_DELAY_MS) : undefined;
  return { delayMs: o.delayMs ?? fromEnv ?? 0, pollMs: o.pollMs ?? 100 };
}
