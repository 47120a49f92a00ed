// Who may use /_emulator (EMULATOR.md "Addresses"): everyone by default; with
// --admin-token T only `Authorization: Bearer T`; with --no-admin nobody (404, as
// if the routes did not exist). Applies to every area's control routes alike.
import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors';
import type { Emulator } from '../emulator';

export function adminGate(emu: Emulator, req: Request): void {
  const url = new URL(req.url);
  if (emu.options.noAdmin) {
    throw new ApiError(404, 'NOT_FOUND', `No route matches ${req.method} ${url.pathname}.`);
  }
  const token = emu.options.adminToken;
  if (token === undefined || token === '') return;
  const header = req.headers.get('authorization');
  const challenge = { 'WWW-Authenticate': 'Bearer realm="wfe-emulator"' };
  if (header === null || header.trim() === '') {
    throw new ApiError(401, 'MISSING_ADMIN_TOKEN', 'The emulator control routes need Authorization: Bearer <token>, the token given to --admin-token.', {}, challenge);
  }
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (!m || !sameSecret(m[1], token)) {
    throw new ApiError(401, 'INVALID_ADMIN_TOKEN', 'The Authorization header does not carry the token given to --admin-token.', {}, challenge);
  }
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
