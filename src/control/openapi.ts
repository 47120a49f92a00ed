// GET /_emulator/openapi.json: the control API as OpenAPI 3.1, generated from the
// control route declarations (define.ts), so it is typed and documented like /v3.
import { z } from 'zod';
import type { Region } from '../context';
import { errorEnvelope } from '../errors';
import type { ControlRoute } from './define';

const jsonSchema = (s: z.ZodType, io: 'input' | 'output') => {
  const js = z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete js.$schema;
  return js;
};

const REQUEST_ID = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };
const STATUS_TEXT: Record<number, string> = { 400: 'Bad request', 401: 'The admin token is missing or wrong', 404: 'Not found', 409: 'Conflict', 413: 'Payload too large' };

/** `/_emulator/my-work/default-view` → `putMyWorkDefaultView`; `:id` → `ById`. */
function operationId(r: ControlRoute): string {
  const words = r.path.replace(/^\/_emulator\//, '').replace(/:(\w+)/g, 'by-$1').split(/[^A-Za-z0-9]+/).filter(Boolean);
  return r.method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

function operation(r: ControlRoute) {
  const responses: Record<string, unknown> = {};
  if (r.noContent) responses['204'] = { description: 'Done', headers: REQUEST_ID };
  else if (r.binary?.answer) responses['200'] = { description: 'OK', headers: REQUEST_ID, content: { [r.binary.answer]: { schema: { type: 'string', contentMediaType: r.binary.answer } } } };
  else responses[String(r.status ?? 200)] = { description: r.status === 201 ? 'Created' : r.status === 202 ? 'Accepted' : 'OK', headers: REQUEST_ID, content: { 'application/json': { schema: r.output ? jsonSchema(r.output(), 'output') : { type: 'object' } } } };
  // Every control route is behind the admin gate (--admin-token: 401 without it).
  const refusals: Record<number, string[]> = { ...r.refusals, 401: ['MISSING_ADMIN_TOKEN', 'INVALID_ADMIN_TOKEN'] };
  for (const [status, codes] of Object.entries(refusals).sort((a, b) => Number(a[0]) - Number(b[0]))) {
    responses[status] = {
      description: `${STATUS_TEXT[Number(status)] ?? 'Refused'}: ${codes.join(', ')}`,
      headers: REQUEST_ID,
      content: { 'application/json': { schema: jsonSchema(errorEnvelope(codes), 'output') } },
    };
  }
  const parameters: unknown[] = [...r.path.matchAll(/:(\w+)/g)].map(([, name]) => ({ name, in: 'path', required: true, description: `The ${name}`, schema: { type: 'string' } }));
  for (const [name, q] of Object.entries(r.query ?? {})) parameters.push({ name, in: 'query', required: false, description: q.description, schema: q.schema });
  let requestBody: unknown;
  if (r.body) {
    requestBody = {
      required: true,
      description: 'JSON, whatever the Content-Type says (so curl -d works as pasted)',
      content: { 'application/json': { schema: jsonSchema(r.body(), 'input') } },
    };
  } else if (r.binary?.request) {
    requestBody = { required: true, description: 'The file', content: { [r.binary.request]: { schema: { type: 'string', contentMediaType: r.binary.request } } } };
  }
  return {
    operationId: operationId(r),
    summary: r.summary,
    description: r.description ?? r.summary,
    tags: ['Control'],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

export function controlOpenApi(routes: ControlRoute[], baseUrls: Record<Region, string>) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) (paths[r.path.replace(/:(\w+)/g, '{$1}')] ??= {})[r.method.toLowerCase()] = operation(r);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Workflow Emulator control API',
      version: '1',
      description: 'The emulator\'s own routes under /_emulator: clock, reset, journal, export and import, webhook deliveries, upgrades, injected faults, API keys, instances. Generated from the control route declarations.',
      contact: { name: 'Workflow Emulator', url: 'https://github.com/workflow-emulator/wfe' },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      { url: baseUrls.US, description: 'US address' },
      { url: baseUrls.EU, description: 'EU address' },
    ],
    security: [{}, { adminToken: [] }],
    tags: [{ name: 'Control', description: 'The emulator itself: not part of the Workflow Service API.' }],
    components: {
      securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'The token given to --admin-token; without that option the routes are open.' } },
      headers: { 'X-Request-Id': { description: 'The request id.', schema: { type: 'string' } } },
    },
    paths,
  };
}
