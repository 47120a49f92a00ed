// /_emulator/instances (docs/instances.md): create, list, describe and delete isolated
// instances. A table of path pattern, method and handler; the admin gate (control/gate.ts)
// runs before it, as before every control route.
import { ApiError } from '../errors';
import type { CallInfo } from '../pipeline';
import { readJson } from '../transports/http/body';
import { json } from '../transports/http/respond';
import type { ExtraRoute } from '../transports/http/app';
import type { InstanceManager } from './manager';
import { checkCreate } from './input';

const ROOT = '/_emulator/instances';

type Handler = (req: Request, m: InstanceManager, params: { id?: string }, info: CallInfo, limit: number) => Promise<Response> | Response;

interface Route {
  path: RegExp;
  methods: Partial<Record<string, Handler>>;
}

export const instanceRoutes: Route[] = [
  {
    path: /^\/_emulator\/instances$/,
    methods: {
      GET: (_req, m, _p, info) => json(200, { items: m.list(), maxInstances: m.max, ttlSeconds: m.ttlMs / 1000 }, { 'X-Request-Id': info.requestId }),
      POST: async (req, m, _p, info, limit) => {
        // Any Content-Type, as the other control routes (`curl -d` sends form-encoded).
        const input = checkCreate(await readJson(req, limit, true));
        const d = m.describe(await m.create(input));
        return json(201, d, { 'X-Request-Id': info.requestId, Location: `${ROOT}/${d.id}` });
      },
    },
  },
  {
    path: /^\/_emulator\/instances\/([^/]+)$/,
    methods: {
      GET: (_req, m, p, info) => json(200, m.describe(m.get(p.id!)), { 'X-Request-Id': info.requestId }),
      DELETE: async (_req, m, p, info) => {
        await m.delete(p.id!);
        return new Response(null, { status: 204, headers: { 'X-Request-Id': info.requestId } });
      },
    },
  },
];

/** The extension handler for one emulator's instances. */
export function instancesRoute(m: InstanceManager, limit: number): ExtraRoute {
  return async (req, info) => {
    const path = new URL(req.url).pathname.replace(/\/+$/, '');
    for (const route of instanceRoutes) {
      const match = route.path.exec(path);
      if (!match) continue;
      const h = route.methods[req.method];
      if (!h) {
        const allowed = Object.keys(route.methods).join(', ');
        throw new ApiError(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${path}. Allowed: ${allowed}.`, {}, { Allow: allowed });
      }
      return h(req, m, { id: match[1] === undefined ? undefined : decodeURIComponent(match[1]) }, info, limit);
    }
    return undefined;
  };
}
