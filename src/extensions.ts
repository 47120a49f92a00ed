// Areas that add more than operations (control routes, legacy API, background
// workers) install themselves here: each gets the emulator and the app's prefix hooks.
import type { Emulator } from './emulator';
import type { AppExtensions } from './transports/http/app';
import { installWebhooks } from './webhooks/install';
import { installLegacy } from './legacy/install';
import { installControl } from './control/routes';
import { fileDownloadRoute } from './domain/tasks/download';
import { faultRoutes } from './faults/routes';

export type Extension = (emu: Emulator, ext: AppExtensions) => void;

export const extensions: Extension[] = [
  (emu, ext) => void installWebhooks(emu, ext),
  installLegacy,
  installControl,
  (_emu, ext) => ext.emulator.push(faultRoutes),
  // Task area: /files/{token} downloads (File Upload answers, comment attachments).
  (_emu, ext) => ext.other.push(fileDownloadRoute),
];
