// Areas that add more than operations (control routes, legacy API, background
// workers) install themselves here: each gets the emulator and adds its routes to the
// address's one route table (AppExtensions.routes).
import type { Emulator } from './emulator';
import type { AppExtensions } from './transports/http/app';
import { installWebhooks } from './webhooks/install';
import { installUpgrades } from './upgrades/install';
import { installLegacy } from './legacy/install';
import { installControl } from './control/routes';
import { fileDownloadRoute } from './transports/http/downloads';
import { controlRouteSpec, type ControlRoute } from './control/define';
import { installSchedules } from './schedules/install';
import { installConsole } from './console/install';
import { faultRoutes } from './faults/routes';
import { keyRoutes } from './control/keys';
import { installInstances } from './instances/install';
import type { MakeEmulator } from './instances/settings';
import { installOAuth } from './oauth/install';
import { checkpointRoutes } from './checkpoints/routes';

/** `make` builds another whole emulator (start.ts's createEmulator), for the instances area. */
export type Extension = (emu: Emulator, ext: AppExtensions, make: MakeEmulator) => void;

export const extensions: Extension[] = [
  (emu, ext) => void installWebhooks(emu, ext),
  (emu, ext) => void installUpgrades(emu, ext),
  installLegacy,
  installControl,
  // Injected faults: /_emulator/faults (docs/faults.md).
  (_emu, ext) => ext.routes.push(...faultRoutes.map((r) => controlRouteSpec(r as ControlRoute))),
  // API keys made, changed and revoked while running (spec v3 5.2): /_emulator/keys.
  (_emu, ext) => ext.routes.push(...keyRoutes.map((r) => controlRouteSpec(r as ControlRoute))),
  // /files/{token} downloads (File Upload answers, comment attachments).
  (_emu, ext) => ext.routes.push(fileDownloadRoute),
  // Schedules: the worker that starts due runs on the emulator clock.
  (emu) => void installSchedules(emu),
  // The web console: /app pages (the `url` of every resource) and its change feed.
  installConsole,
  // Checkpoints and their diff, for agent evaluations: /_emulator/checkpoints (docs/checkpoints.md).
  (_emu, ext) => ext.routes.push(...checkpointRoutes.map((r) => controlRouteSpec(r))),
  // Isolated instances on demand: /_emulator/instances (docs/instances.md).
  installInstances,
  // OAuth sign-in on /mcp beside X-API-KEY (docs/oauth.md); off with --no-oauth.
  installOAuth,
];
