// Starting a whole emulator (database + both regional servers). Used by the CLI and tests.
import { Emulator, type EmulatorOptions } from './emulator';
import { listen, type Running } from './transports/http/server';
import { emptyExtensions, type AppExtensions } from './transports/http/app';
import { extensions } from './extensions';

export interface StartOptions extends EmulatorOptions {
  host?: string;
  portUs?: number;
  portEu?: number;
}

export interface Started {
  emu: Emulator;
  urls: Running['urls'];
  close(): Promise<void>;
}

/** An emulator with every area's extension installed (workers, hooks), for any transport. */
export function createEmulator(opts: EmulatorOptions = {}): { emu: Emulator; ext: AppExtensions } {
  const emu = new Emulator(opts);
  const ext: AppExtensions = emptyExtensions();
  for (const install of extensions) install(emu, ext);
  return { emu, ext };
}

export async function start(opts: StartOptions = {}): Promise<Started> {
  // Instances bind where the server binds.
  const instances = opts.instances === false ? false : { host: opts.host, ...opts.instances };
  const { emu, ext } = createEmulator({ ...opts, instances });
  let running: Running;
  try {
    running = await listen(emu, { host: opts.host, portUs: opts.portUs, portEu: opts.portEu, extensions: ext });
  } catch (e) {
    await emu.close();
    throw e;
  }
  let closed = false;
  return {
    emu,
    urls: running.urls,
    close: async () => {
      if (closed) return;
      closed = true;
      await running.close();
      await emu.close();
    },
  };
}
