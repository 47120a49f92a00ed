// Installs the scheduler on an emulator (src/extensions.ts), like the webhook sender.
import { Slot, type Emulator } from '../emulator';
import { ScheduleWorker } from './worker';

const SCHEDULER = new Slot<ScheduleWorker>('scheduler');

/** The scheduler of an emulator (tests call `tick()` to start due runs without waiting for the poll). */
export const schedulerOf = (emu: Emulator): ScheduleWorker | undefined => emu.slot(SCHEDULER);

export function installSchedules(emu: Emulator): ScheduleWorker {
  const existing = emu.slot(SCHEDULER);
  if (existing) return existing;
  const w = new ScheduleWorker(emu);
  emu.setSlot(SCHEDULER, w);
  emu.closers.push(() => w.stop());
  w.start();
  return w;
}
