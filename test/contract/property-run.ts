// A property-based run against the served OpenAPI document (issue 39), in the manner of
// Schemathesis: for every operation, requests generated from its declared parameters and
// request body only (fast-check arbitraries from the JSON Schemas, test/contract/arbitraries.ts),
// sent to a real server; every answer must have a declared status, a body its declared schema
// accepts (Ajv, formats on), and never be a 5xx. A refusal of such generated, valid input is a
// "positive-data rejection": a rule the document does not state, or a fact no schema can state
// (a key that names nothing, a state). They are counted by kind, for docs/contract.md.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { arbitraryOf, type FastCheckApi, type Schema } from './arbitraries';

export interface RunOptions {
  fc: FastCheckApi;
  /** The served document (GET /v3/openapi.json). */
  doc: any;
  /** Base URL of the server (US region). */
  base: string;
  key: string;
  /** Cases per operation. */
  runs: number;
  seed: number;
  /** Called between operations (e.g. to put the fixture back), so each starts from the same data. */
  between?: () => void | Promise<void>;
  /** Only operations whose operationId this accepts. */
  only?: (operationId: string) => boolean;
}

export interface Failure {
  operation: string;
  check: 'status' | 'schema' | '5xx' | 'transport';
  detail: string;
  request: string;
}

export interface RunResult {
  operations: number;
  requests: number;
  byStatus: Record<string, number>;
  failures: Failure[];
  /** Refusals of generated valid input, by `operationId status code field`. */
  rejections: Record<string, { count: number; message: string }>;
}

interface Built {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  describe: string;
}

const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete'];

export function operationsOf(doc: any): { path: string; method: string; op: any }[] {
  const out: { path: string; method: string; op: any }[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) for (const [method, op] of Object.entries<any>(item)) out.push({ path, method, op });
  // Reads first, removals last, so the data a read needs is still there.
  return out.sort((a, b) => METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method));
}

function queryText(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** The request generator of one operation: path and query parameters, body, Idempotency-Key. */
function requestArbitrary(fc: FastCheckApi, doc: any, path: string, method: string, op: any, ajv: Ajv2020): any {
  const params = (op.parameters ?? []).map((p: any) => (p.$ref ? resolve(doc, p.$ref) : p)) as any[];
  const parts: Record<string, unknown> = {};
  const requiredKeys: string[] = [];
  for (const p of params) {
    if (p.in === 'header' && p.name !== 'Idempotency-Key') continue;
    const name = `${p.in}:${p.name}`;
    const gen = arbitraryOf(fc, p.schema as Schema);
    // A path parameter's example (a key of the demo fixture) is used half of the time, so
    // a case reaches past "not found"; the other half tries generated keys.
    parts[name] = p.example !== undefined ? fc.oneof(fc.constant(p.example), gen) : gen;
    if (p.required) requiredKeys.push(name);
  }
  const body = op.requestBody?.content?.['application/json']?.schema;
  if (body) {
    // What the generator does not aim at (`not`, dependentRequired, dependentSchemas) is kept out here.
    const valid = ajv.compile(body);
    parts.body = arbitraryOf(fc, body as Schema).filter((v: unknown) => valid(v));
    if (op.requestBody.required) requiredKeys.push('body');
  }
  return fc.record(parts, { requiredKeys }).map((v: Record<string, unknown>) => {
    let url = path;
    const query = new URLSearchParams();
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(v)) {
      if (name === 'body') continue;
      const [where, param] = name.split(/:(.*)/s);
      if (where === 'path') url = url.replace(`{${param}}`, encodeURIComponent(queryText(value)));
      else if (where === 'query') query.set(param, queryText(value));
      else headers[param] = queryText(value);
    }
    const qs = query.toString();
    const b = v.body === undefined ? undefined : JSON.stringify(v.body);
    if (b !== undefined) headers['Content-Type'] = 'application/json';
    const full = url + (qs ? `?${qs}` : '');
    return { method: method.toUpperCase(), url: full, headers, body: b, describe: `${method.toUpperCase()} ${full}${b ? ` ${b.slice(0, 400)}` : ''}${headers['Idempotency-Key'] !== undefined ? ` Idempotency-Key: ${JSON.stringify(headers['Idempotency-Key'])}` : ''}` };
  });
}

function resolve(doc: any, ref: string): any {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((o, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
}

export async function propertyRun(o: RunOptions): Promise<RunResult> {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  const validators = new Map<string, ReturnType<typeof ajv.compile>>();
  const result: RunResult = { operations: 0, requests: 0, byStatus: {}, failures: [], rejections: {} };
  let i = 0;
  for (const { path, method, op } of operationsOf(o.doc)) {
    if (o.only && !o.only(op.operationId)) continue;
    result.operations++;
    await o.between?.();
    const cases: Built[] = o.fc.sample(requestArbitrary(o.fc, o.doc, path, method, op, ajv), { numRuns: o.runs, seed: o.seed + i++ });
    for (const c of cases) {
      result.requests++;
      let res: Response;
      let text: string;
      try {
        res = await fetch(o.base + c.url, { method: c.method, headers: { 'X-API-KEY': o.key, ...c.headers }, body: c.body });
        text = await res.text();
      } catch (e) {
        result.failures.push({ operation: op.operationId, check: 'transport', detail: String(e), request: c.describe });
        continue;
      }
      result.byStatus[res.status] = (result.byStatus[res.status] ?? 0) + 1;
      const fail = (check: Failure['check'], detail: string) => result.failures.push({ operation: op.operationId, check, detail, request: c.describe });
      if (res.status >= 500) fail('5xx', `${res.status} ${text.slice(0, 300)}`);
      const declared = op.responses?.[String(res.status)];
      if (!declared) {
        fail('status', `status ${res.status} is not declared: ${text.slice(0, 300)}`);
        continue;
      }
      const media = Object.keys(declared.content ?? {})[0];
      if (media === 'application/json') {
        const id = `${op.operationId} ${res.status}`;
        let validate = validators.get(id);
        if (!validate) validators.set(id, (validate = ajv.compile(declared.content[media].schema)));
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          fail('schema', `not JSON: ${text.slice(0, 200)}`);
          continue;
        }
        if (!validate(body)) fail('schema', `${res.status}: ${ajv.errorsText(validate.errors)}: ${text.slice(0, 300)}`);
        if (res.status >= 400 && res.status < 500) {
          const e = (body as { error?: { code?: string; field?: string; message?: string } }).error ?? {};
          const kind = `${op.operationId} ${res.status} ${e.code ?? '?'}${e.field ? ` ${e.field}` : ''}`;
          const r = (result.rejections[kind] ??= { count: 0, message: e.message ?? '' });
          r.count++;
        }
      } else if (!media && text !== '') fail('schema', `${res.status} declares no body but answered ${text.slice(0, 200)}`);
    }
  }
  return result;
}

/** fast-check (a devDependency), or undefined where it is not installed (the run is then skipped, saying so). */
export function loadFastCheck(): FastCheckApi | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('fast-check') as FastCheckApi;
  } catch {
    return undefined;
  }
}
