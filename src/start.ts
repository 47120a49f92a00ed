// Starting a whole emulator (database + both regional servers). Used by the CLI and tests.
import { Emulator, type EmulatorOptions } from './emulator';
import { listen, type Running } from './transports/http/server';
import { emptyExtensions, type AppExtensions } from './transports/http/app';
import { extensions } from './extensions';
import { requestChain } from './request-chain';
import { Clock } from './clock';
import { imageBytesAt, imageReady } from './fixtures/image';

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
  const emu = new Emulator(opts.db || opts.image || !imageReady(opts.fixture ?? 'demo') ? opts : fromImage(opts));
  const ext: AppExtensions = emptyExtensions();
  ext.chain.push(...requestChain);
  for (const install of extensions) install(emu, ext, createEmulator);
  return { emu, ext };
}

/**
 * An in-memory database of a built-in fixture starts from the fixture's prepared image moved
 * to the clock's instant (src/fixtures/image.ts): the rows a load writes, without the load.
 * Only when the image is ready (embedded by the build, or made already by this process).
 */
function fromImage(opts: EmulatorOptions): EmulatorOptions {
  const clock = opts.clock ?? new Clock();
  return { ...opts, clock, image: imageBytesAt(opts.fixture ?? 'demo', clock.now()) };
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
