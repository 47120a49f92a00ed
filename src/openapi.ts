// GET /v3/openapi.json: OpenAPI 3.1 generated from the operation table: input
// and output schemas, the refusals of each operation by status (the envelope of
// the one error writer), tags, descriptions and examples from the demo fixture.
import { z } from 'zod';
import { type Operation } from './operations/define';
import type { Region } from './context';
import { compiled, partitionOf, refusalsByStatus } from './contract/compile';
import { TAGS } from './contract/tags';
import { kindOf } from './contract/coerce';

const jsonSchema = (s: z.ZodType, io: 'input' | 'output' = 'input') => {
  const js = z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete js.$schema;
  return js;
};

/** Identifiers of the demo fixture (README), as examples of path parameters by name. */
const EXAMPLES: Record<string, unknown> = {
  checklistKey: '30000000-0000-4000-8000-000000000001',
  taskKey: '21000000-0000-4000-8000-000000000102',
  key: '20000000-0000-4000-8000-000000000001',
  templateKey: '20000000-0000-4000-8000-000000000001',
  memberId: 103,
  groupId: 301,
  dataSetKey: '50000000-0000-4000-8000-000000000001',
  type: 'ShortText',
  fieldKey: '22000000-0000-4000-8000-000000000112',
  viewKey: '53000000-0000-4000-8000-000000000001',
  recordKey: '52000000-0000-4000-8000-000000000001',
  // The fixture has no schedule: the first one created is 1, as is its first run.
  scheduleId: 1,
  runId: 1,
};

/** Where one name means different things by route: the demo fixture's standalone task, Data Set field. */
const EXAMPLES_UNDER: [RegExp, Record<string, unknown>][] = [
  [/^\/v3\/tasks\//, { taskKey: '40000000-0000-4000-8000-000000000001' }],
  [/^\/v3\/data-sets\//, { fieldKey: '51000000-0000-4000-8000-000000000001' }],
];
const exampleOf = (path: string, name: string): unknown => EXAMPLES_UNDER.find(([re, ex]) => re.test(path) && name in ex)?.[1][name] ?? EXAMPLES[name];

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No content',
  400: 'Bad request',
  401: 'Unauthorized: the API key',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Payload too large',
  421: 'Wrong region',
  422: 'Unprocessable',
  429: 'Rate limit exceeded',
};

const header = (description: string, type: 'string' | 'integer' = 'string') => ({ description, schema: { type } });
const COMMON_HEADERS = {
  'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
};
const BUDGET_HEADERS = {
  'X-RateLimit-Bucket': { $ref: '#/components/headers/X-RateLimit-Bucket' },
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};

const describeOf = (s: z.ZodType): string | undefined => (s as { description?: string }).description;

/**
 * A boolean query option as the server reads it (spec v3 4.4; src/transports/web/coerce.ts):
 * `true` in any letter case switches it on, any other text is false. A client may send a
 * boolean; a validating proxy must let `TRUE` through.
 */
const queryBooleanSchema = (description: string | undefined) => ({
  anyOf: [{ type: 'boolean' }, { type: 'string', description: '"true" in any letter case is true; any other text is false.' }],
  ...(description ? { description } : {}),
});

function parameter(op: Operation, name: string, where: 'path' | 'query') {
  const s = op.input[name] as z.ZodType;
  const schema = where === 'query' && kindOf(s) === 'boolean' ? queryBooleanSchema(describeOf(s)) : jsonSchema(s);
  const description = describeOf(s) ?? (schema.description as string | undefined) ?? name;
  const example = where === 'path' ? exampleOf(op.path, name) : undefined;
  return {
    name,
    in: where,
    required: where === 'path' || !s.safeParse(undefined).success,
    description,
    schema,
    ...(example !== undefined ? { example } : {}),
  };
}

function successResponse(op: Operation, status: number, description: string, headers: Record<string, string> = {}) {
  const h: Record<string, unknown> = { ...COMMON_HEADERS, ...BUDGET_HEADERS };
  for (const [name, what] of Object.entries(headers)) h[name] = header(what, name === 'Retry-After' ? 'integer' : 'string');
  if (status === 204 || !op.output) return { description, headers: h };
  return { description, headers: h, content: { [op.contentType ?? 'application/json']: { schema: jsonSchema(op.output, 'output') } } };
}

function errorResponses(op: Operation) {
  const out: Record<string, unknown> = {};
  for (const [status, codes] of [...refusalsByStatus(op)].sort((a, b) => a[0] - b[0])) {
    const list = [...codes].sort();
    out[String(status)] = {
      description: `${STATUS_TEXT[status] ?? 'Refused'}: ${list.join(', ')}`,
      headers: status === 429 ? { ...COMMON_HEADERS, ...BUDGET_HEADERS, 'Retry-After': header('Seconds until the window ends', 'integer') } : COMMON_HEADERS,
      content: { 'application/json': { schema: jsonSchema(compiled(op).errorSchema(status), 'output') } },
    };
  }
  return out;
}

function operationObject(op: Operation) {
  const part = partitionOf(op);
  const parameters: unknown[] = [
    ...part.path.map((n) => parameter(op, n, 'path')),
    ...part.query.map((n) => parameter(op, n, 'query')),
    { $ref: '#/components/parameters/XRequestId' },
    { $ref: '#/components/parameters/XSvcTimezone' },
  ];
  if (op.method !== 'GET') parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  let requestBody: unknown;
  if (part.bodyAs) {
    const s = op.input[part.bodyAs] as z.ZodType;
    requestBody = { required: true, description: describeOf(s) ?? 'The request body', content: { 'application/json': { schema: jsonSchema(s) } } };
  } else if (part.hasBody) {
    const shape = z.object(Object.fromEntries(part.body.map((k) => [k, op.input[k]])));
    requestBody = {
      required: !shape.safeParse({}).success || op.bodyRule !== undefined,
      description: 'JSON body',
      content: { 'application/json': { schema: { ...jsonSchema(shape), ...op.bodyRule } } },
    };
  }
  const main = op.status ?? 200;
  const responses: Record<string, unknown> = { [String(main)]: successResponse(op, main, STATUS_TEXT[main] ?? 'OK') };
  for (const o of op.otherSuccess ?? []) {
    responses[String(o.status)] = successResponse(op, o.status, o.description, o.headers);
  }
  Object.assign(responses, errorResponses(op));
  return {
    operationId: op.id,
    summary: op.summary,
    description: op.description ?? op.summary,
    tags: [op.tag ?? 'Other'],
    ...(op.tool ? { 'x-mcp-tool': op.tool } : { 'x-mcp-tool-absent': op.noTool ?? 'no MCP tool' }),
    'x-rate-budget': op.budget,
    // Where the behaviour comes from (docs/fidelity.md): the spec, our design, or both.
    'x-fidelity': op.fidelity.mark,
    'x-fidelity-source': op.fidelity.source,
    ...(op.fidelity.designed ? { 'x-fidelity-designed': op.fidelity.designed } : {}),
    parameters,
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

/** The operations by their OpenAPI path, in the order the table first names each path. */
function pathGroups(ops: Operation[]): Map<string, Operation[]> {
  const groups = new Map<string, Operation[]>();
  for (const op of ops) {
    const p = partitionOf(op).openApiPath;
    let g = groups.get(p);
    if (!g) groups.set(p, (g = []));
    g.push(op);
  }
  return groups;
}

/** A path item: its operations by method (a later one of the same method replaces the earlier, in its place). */
function pathItem(group: Operation[]): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const op of group) item[op.method.toLowerCase()] = operationObject(op);
  return item;
}

export function openApiDocument(ops: Operation[], baseUrls: Record<Region, string>) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [p, group] of pathGroups(ops)) paths[p] = pathItem(group);
  return { ...documentHead(ops, baseUrls), paths };
}

/**
 * The document's JSON text, the same as JSON.stringify(openApiDocument(...)), written a path at
 * a time: measured, the whole document as objects held ~33 MB of heap at once (3.3 MB of text),
 * which took a fresh server from 72 MB to 167 MB of RSS on its first GET /v3/openapi.json.
 * `pathsText`: the paths made beforehand (src/prebuilt.ts); only the head holds the base URLs.
 */
export function openApiText(ops: Operation[], baseUrls: Record<Region, string>, pathsText = openApiPathsText(ops)): string {
  const head = JSON.stringify({ ...documentHead(ops, baseUrls), paths: {} });
  return `${head.slice(0, -3)}${pathsText}}`;
}

/** The document's `paths` as JSON text: every schema of every operation, the same whatever the base URLs. */
export function openApiPathsText(ops: Operation[]): string {
  const parts: string[] = [];
  for (const [p, group] of pathGroups(ops)) parts.push(`${JSON.stringify(p)}:${JSON.stringify(pathItem(group))}`);
  return `{${parts.join(',')}}`;
}

function documentHead(ops: Operation[], baseUrls: Record<Region, string>) {
  const used = new Set<string>();
  for (const op of ops) used.add(op.tag ?? 'Other');
  const tags = [...Object.keys(TAGS), ...[...used].filter((t) => !(t in TAGS))]
    .filter((t) => used.has(t))
    .map((name) => ({ name, description: TAGS[name] ?? name }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Workflow Service v3 API (Workflow Emulator)',
      version: '3',
      description:
        'The Workflow Service v3 REST API as served by the Workflow Emulator. Every operation is also an MCP tool at /mcp where `x-mcp-tool` names it. Generated from the operation table.',
      contact: { name: 'Workflow Emulator', url: 'https://github.com/workflow-emulator/wfe' },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      { url: baseUrls.US, description: 'US region' },
      { url: baseUrls.EU, description: 'EU region' },
    ],
    security: [{ apiKey: [] }],
    tags,
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY', description: 'The API key; it decides the workspace and who the request acts as (spec v3 5).' } },
      parameters: {
        XRequestId: { name: 'X-Request-Id', in: 'header', required: false, description: 'Your own request id (1 to 128 of letters, digits and - _ . : + / =); echoed back, otherwise one is generated (spec v3 4.1 rule 9).', schema: { type: 'string', maxLength: 128 } },
        XSvcTimezone: { name: 'X-SVC-Timezone', in: 'header', required: false, description: 'IANA or Windows zone for text written at change time (spec v3 4.1 rule 7).', schema: { type: 'string' }, example: 'Europe/Berlin' },
        IdempotencyKey: { name: 'Idempotency-Key', in: 'header', required: false, description: 'The same key with the same request within 24 hours returns the first answer (spec v3 4.1 rule 12).', schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S' } },
      },
      headers: {
        'X-Request-Id': header('The request id (spec v3 4.1 rule 9).'),
        'X-RateLimit-Bucket': header('The budget charged: standard or cheap (spec v3 8).'),
        'X-RateLimit-Limit': header('Requests allowed in the window.', 'integer'),
        'X-RateLimit-Remaining': header('Requests left in the window.', 'integer'),
        'X-RateLimit-Reset': header('When the window ends, in seconds since the epoch.', 'integer'),
      },
    },
  };
}
