// The web console extension (src/extensions.ts): /app pages on both addresses, and the
// picker's key list under /_emulator (guarded like every control route).
import type { Emulator } from '../emulator';
import type { AppExtensions } from '../transports/http/app';
import { z } from 'zod';
import { fixtureKeys } from './keys';
import { controlRouteSpec, defineControlRoute, type ControlRoute } from '../control/define';
import { consoleRoutes } from './routes';
import { lazy } from '../lazy';

export function installConsole(emu: Emulator, ext: AppExtensions): void {
  ext.routes.push(...consoleRoutes(emu));
  ext.routes.push(controlRouteSpec(pickerKeys as ControlRoute));
}

const pickerKey = lazy(() => z.object({
  key: z.string(),
  name: z.string(),
  workspace: z.string(),
  region: z.string(),
  actsAs: z.string(),
  state: z.enum(['revoked', 'expired', 'unavailable']).optional().describe('Why the key is refused, when the fixture says it will be.'),
  timeZone: z.string().optional().describe("The zone the API uses for the key (its member's profile zone, else UTC): the console's date picker shows and converts in it."),
}));

/** GET /_emulator/console/keys: the picker's keys; another method is 404, as it always was. */
const pickerKeys = defineControlRoute({
  method: 'GET',
  path: '/_emulator/console/keys',
  summary: "The fixture's API keys, for the console's key picker",
  output: () => z.object({ items: z.array(pickerKey()) }),
  wrongMethod: 'not-found',
  handler: (emu) => ({ items: fixtureKeys(emu.fixture, emu.clock.now()) }),
});
