// Mounts the legacy route table at /api/* (src/extensions.ts).
import type { Emulator } from '../emulator';
import type { AppExtensions } from '../transports/http/app';
import { legacyRouter } from './router';
import { legacyRoutes } from './routes';

export function installLegacy(_emu: Emulator, ext: AppExtensions): void {
  ext.legacy.push(legacyRouter(legacyRoutes));
}
