// Installs /_emulator/instances on an emulator (src/extensions.ts). An instance itself
// gets none (instances: false): instances do not nest.
import { Slot, type Emulator } from '../emulator';
import type { AppExtensions } from '../transports/http/app';
import { InstanceManager } from './manager';
import type { MakeEmulator } from './settings';
import { instanceRoutes } from './routes';
import { controlRouteSpec, type ControlRoute } from '../control/define';

const INSTANCES = new Slot<InstanceManager>('instances');

/** The instances of an emulator (the library's emulator.instances). */
export const instancesOf = (emu: Emulator): InstanceManager | undefined => emu.slot(INSTANCES);

export function installInstances(emu: Emulator, ext: AppExtensions, make: MakeEmulator): void {
  if (emu.options.instances === false) return;
  const m = new InstanceManager(emu, emu.options.instances, make);
  emu.setSlot(INSTANCES, m);
  for (const r of instanceRoutes(m, emu.maxBodyBytes)) ext.routes.push(controlRouteSpec(r as ControlRoute));
  emu.closers.push(() => m.close());
}
