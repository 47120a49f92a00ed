// The web console extension (src/extensions.ts): /app pages on both addresses, and the
// picker's key list under /_emulator (guarded like every control route).
import type { Emulator } from '../emulator';
import type { AppExtensions } from '../transports/http/app';
import { consoleKeysRoute } from './keys';
import { consoleRoutes } from './routes';

export function installConsole(emu: Emulator, ext: AppExtensions): void {
  ext.other.push(consoleRoutes(emu));
  ext.emulator.push(consoleKeysRoute);
}
