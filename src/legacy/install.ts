// Adds the legacy routes to the address's one route table (src/extensions.ts).
import type { Emulator } from '../emulator';
import type { AppExtensions } from '../transports/http/app';
import { legacyRouteSpecs } from './router';
import { legacyRoutes } from './routes';

export function installLegacy(_emu: Emulator, ext: AppExtensions): void {
  ext.routes.push(...legacyRouteSpecs(legacyRoutes));
}
