// Installs the scheduler on an emulator (src/extensions.ts), like the webhook sender.
import type { Emulator } from '../emulator';
import { ScheduleWorker } from './worker';

const workers = new WeakMap<Emulator, ScheduleWorker>();

/** The scheduler of an emulator (tests call `tick()` to start due runs without waiting for the poll). */
export const schedulerOf = (emu: Emulator): ScheduleWorker | undefined => workers.get(emu);

export function installSchedules(emu: Emulator): ScheduleWorker {
  const existing = workers.get(emu);
  if (existing) return existing;
  const w = new ScheduleWorker(emu);
  workers.set(emu, w);
  emu.closers.push(() => w.stop());
  w.start();
  return w;
}
