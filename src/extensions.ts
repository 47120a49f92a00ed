// Areas that add more than operations (control routes, legacy API, background
// workers) install themselves here: each gets the emulator and the app's prefix hooks.
import type { Emulator } from './emulator';
import type { AppExtensions } from './transports/http/app';
import { fileDownloadRoute } from './domain/tasks/download';

export type Extension = (emu: Emulator, ext: AppExtensions) => void;

export const extensions: Extension[] = [
  // Task area: /files/{token} downloads (File Upload answers, comment attachments).
  (_emu, ext) => ext.other.push(fileDownloadRoute),
];
