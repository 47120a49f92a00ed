// Installs /_emulator/instances on an emulator (src/extensions.ts). An instance itself
// gets none (instances: false): instances do not nest.
import type { Emulator } from '../emulator';
import type { AppExtensions } from '../transports/http/app';
import { InstanceManager } from './manager';
import { instancesRoute } from './routes';

const managers = new WeakMap<Emulator, InstanceManager>();

/** The instances of an emulator (the library's emulator.instances). */
export const instancesOf = (emu: Emulator): InstanceManager | undefined => managers.get(emu);

export function installInstances(emu: Emulator, ext: AppExtensions): void {
  if (emu.options.instances === false) return;
  const m = new InstanceManager(emu, emu.options.instances);
  managers.set(emu, m);
  ext.emulator.push(instancesRoute(m, emu.maxBodyBytes));
  emu.closers.push(() => m.close());
}
