// Upgrade worker settings (docs/upgrades.md "The worker").
import type { UpgradeOptions } from '../emulator';

export type { UpgradeOptions };

export interface ResolvedUpgradeOptions {
  delayMs: number;
  pollMs: number;
}

export const DEFAULT_DELAY_MS = 60_000;

export function resolveUpgradeOptions(o: UpgradeOptions = {}, env: NodeJS.ProcessEnv = process.env): ResolvedUpgradeOptions {
  const fromEnv = env.WFE_UPGRADE_DELAY_MS !== undefined && /^\d+$/.test(env.WFE_UPGRADE_DELAY_MS) ? Number(env.WFE_UPGRADE_DELAY_MS) : undefined;
  return { delayMs: o.delayMs ?? fromEnv ?? DEFAULT_DELAY_MS, pollMs: o.pollMs ?? 100 };
}
