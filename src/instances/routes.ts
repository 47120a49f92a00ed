// /_emulator/instances (docs/instances.md): create, list, describe and delete isolated
// instances, declared as control routes (control/define.ts); the admin gate (the request
// chain, src/request-chain.ts) runs before them, as before every control route.
import { z } from 'zod';
import { readJson } from '../transports/web/body';
import { json } from '../transports/web/respond';
import { defineControlRoute, type ControlRoute } from '../control/define';
import type { InstanceManager } from './manager';
import { checkCreate } from './input';
import { lazy } from '../lazy';

const ROOT = '/_emulator/instances';
/** What the routes of one instance share. */
const ONE = { path: `${ROOT}/:id`, refusals: { 404: ['INSTANCE_NOT_FOUND'] } };

const description = lazy(() => z.object({
  id: z.string(),
  fixture: z.string(),
  baseUrls: z.object({ US: z.string(), EU: z.string() }),
  mcpUrls: z.object({ US: z.string(), EU: z.string() }),
  createdAt: z.string(),
  lastRequestAt: z.string(),
  expiresAt: z.string(),
}));

/** The instance routes of one emulator's manager. */
export function instanceRoutes(m: InstanceManager, limit: number): ControlRoute[] {
  return [
    defineControlRoute({
      method: 'GET',
      path: ROOT,
      summary: 'The isolated instances of this emulator',
      output: () => z.object({ items: z.array(description()), maxInstances: z.number().int(), ttlSeconds: z.number() }),
      handler: () => ({ items: m.list(), maxInstances: m.max, ttlSeconds: m.ttlMs / 1000 }),
    }),
    defineControlRoute({
      method: 'POST',
      path: ROOT,
      summary: 'Create an isolated instance',
      status: 201,
      output: description,
      refusals: { 400: ['VALIDATION_ERROR'], 503: ['TOO_MANY_INSTANCES', 'SERVICE_UNAVAILABLE', 'INSTANCE_START_FAILED'] },
      handler: async (_emu, { req }) => {
        // Any Content-Type, as the other control routes (`curl -d` sends form-encoded).
        const input = checkCreate(await readJson(req, limit, true));
        const d = m.describe(await m.create(input));
        return json(201, d, { Location: `${ROOT}/${d.id}` });
      },
    }),
    defineControlRoute({ ...ONE, method: 'GET', summary: 'One isolated instance', output: () => description(), handler: (_emu, { params }) => m.describe(m.get(decodeURIComponent(params.id))) }),
    defineControlRoute({
      ...ONE,
      method: 'DELETE',
      summary: 'Delete an isolated instance',
      noContent: true,
      handler: async (_emu, { params }) => {
        await m.delete(decodeURIComponent(params.id));
      },
    }),
  ];
}
