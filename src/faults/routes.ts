// /_emulator/faults (docs/faults.md): list, add, remove one, remove all.
import type { Emulator } from '../emulator';
import type { CallInfo } from '../pipeline';
import { ApiError, validationError } from '../errors';
import { readJson } from '../transports/web/body';
import { json } from '../transports/web/respond';

const ROOT = '/_emulator/faults';

export async function faultRoutes(req: Request, info: CallInfo, emu: Emulator): Promise<Response | undefined> {
  const path = new URL(req.url).pathname.replace(/\/+$/, '');
  const headers = { 'X-Request-Id': info.requestId };
  if (path === ROOT) {
    if (req.method === 'GET') return json(200, { items: emu.faults.list() }, headers);
    if (req.method === 'POST') {
      const body = await readJson(req, emu.maxBodyBytes);
      if (body === undefined) throw validationError('Send a fault rule as a JSON object, e.g. {"path":"/v3/**","status":503,"times":1}.');
      return json(201, emu.faults.add(body), { ...headers, Location: `${ROOT}/${emu.faults.list().at(-1)!.id}` });
    }
    if (req.method === 'DELETE') {
      emu.faults.clear();
      return new Response(null, { status: 204, headers });
    }
    throw new ApiError(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${ROOT}. Allowed: GET, POST, DELETE.`, {}, { Allow: 'GET, POST, DELETE' });
  }
  if (path.startsWith(ROOT + '/')) {
    const id = decodeURIComponent(path.slice(ROOT.length + 1));
    if (req.method === 'GET') {
      const rule = emu.faults.list().find((r) => r.id === id);
      if (!rule) throw new ApiError(404, 'FAULT_NOT_FOUND', `No fault rule ${id} (it may have been used up, removed or cleared by a reset).`);
      return json(200, rule, headers);
    }
    if (req.method === 'DELETE') {
      if (!emu.faults.remove(id)) throw new ApiError(404, 'FAULT_NOT_FOUND', `No fault rule ${id} (it may have been used up, removed or cleared by a reset).`);
      return new Response(null, { status: 204, headers });
    }
    throw new ApiError(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${path}. Allowed: GET, DELETE.`, {}, { Allow: 'GET, DELETE' });
  }
  return undefined;
}
