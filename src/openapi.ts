// GET /v3/openapi.json: OpenAPI 3.1 generated from the operation table.
import { z } from 'zod';
import { pathParams, type Operation } from './operations/define';
import type { Region } from './context';

const jsonSchema = (s: z.ZodType, io: 'input' | 'output' = 'input') => {
  const js = z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete js.$schema;
  return js;
};

const errorEnvelope = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'requestId'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        requestId: { type: 'string' },
        field: { type: 'string' },
        url: { type: 'string' },
        retryAfterSeconds: { type: 'integer' },
        violations: { type: 'array', items: { type: 'object' } },
      },
    },
  },
};

export function openApiDocument(ops: Operation[], baseUrls: Record<Region, string>) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of ops) {
    const p = op.path.replace(/:(\w+)/g, '{$1}');
    const pnames = pathParams(op.path);
    const qnames = op.query ?? [];
    const parameters = [
      ...pnames.map((n) => ({ name: n, in: 'path', required: true, schema: jsonSchema(op.input[n] as z.ZodType) })),
      ...qnames.map((n) => ({ name: n, in: 'query', required: !(op.input[n] as z.ZodType).safeParse(undefined).success, schema: jsonSchema(op.input[n] as z.ZodType) })),
    ];
    if (op.method !== 'GET') parameters.push({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } });
    const bodyNames = Object.keys(op.input).filter((k) => !pnames.includes(k) && !qnames.includes(k));
    let requestBody: unknown;
    if (op.method !== 'GET') {
      if (op.bodyAs) {
        requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(op.input[op.bodyAs] as z.ZodType) } } };
      } else if (bodyNames.length) {
        const shape = Object.fromEntries(bodyNames.map((k) => [k, op.input[k]]));
        requestBody = { content: { 'application/json': { schema: jsonSchema(z.object(shape)) } } };
      }
    }
    const okStatus = String(op.status ?? 200);
    paths[p] ??= {};
    paths[p][op.method.toLowerCase()] = {
      operationId: op.id,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      ...(op.tool ? { 'x-mcp-tool': op.tool } : {}),
      'x-rate-budget': op.budget,
      parameters,
      ...(requestBody ? { requestBody } : {}),
      responses: {
        [okStatus]: okStatus === '204' ? { description: 'No content' } : { description: 'OK', content: { 'application/json': { schema: {} } } },
        default: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Workflow Service v3 API (Workflow Emulator)', version: '3' },
    servers: [
      { url: baseUrls.US, description: 'US region' },
      { url: baseUrls.EU, description: 'EU region' },
    ],
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY' } },
      schemas: { Error: errorEnvelope },
    },
    paths,
  };
}
