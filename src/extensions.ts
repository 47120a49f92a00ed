// Areas that add more than operations (control routes, legacy API, background
// workers) install themselves here: each gets the emulator and the app's prefix hooks.
import type { Emulator } from './emulator';
import type { AppExtensions } from './transports/http/app';
import { installWebhooks } from './webhooks/install';
import { installLegacy } from './legacy/install';
import { installControl } from './control/routes';
import { fileDownloadRoute } from './domain/tasks/download';
import { installConsole } from './console/install';

export type Extension = (emu: Emulator, ext: AppExtensions) => void;

export const extensions: Extension[] = [
  (emu, ext) => void installWebhooks(emu, ext),
  installLegacy,
  installControl,
  // Task area: /files/{token} downloads (File Upload answers, comment attachments).
  (_emu, ext) => ext.other.push(fileDownloadRoute),
  // The web console: /app pages (the `url` of every resource) and its change feed.
  installConsole,
];
