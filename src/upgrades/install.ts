// Installs the upgrade worker on an emulator: the queue hook the upgrade operation calls,
// the background worker (stopped by emu.closers) and the /_emulator/upgrades control routes.
import type { Emulator } from '../emulator';
import type { AppExtensions } from '../transports/http/app';
import { resolveUpgradeOptions } from './options';
import { UpgradeWorker } from './worker';
import { upgradeControlRoutes } from './control';
import { controlRouteSpec, type ControlRoute } from '../control/define';

export function installUpgrades(emu: Emulator, ext?: AppExtensions): UpgradeWorker {
  const opts = resolveUpgradeOptions(emu.options.upgrades);
  const worker = new UpgradeWorker(emu, opts);
  emu.hooks.upgrades = { delayMs: opts.delayMs, queued: () => worker.kick() };
  for (const r of upgradeControlRoutes(worker)) ext?.routes.push(controlRouteSpec(r as ControlRoute));
  emu.closers.push(() => worker.stop());
  worker.start();
  return worker;
}
