// The bad-input campaign (docs/reliability.md): for every operation of the
// table, every MCP tool and every legacy route, requests generated from the
// schema and then broken, sent with every fixture key. Checks per answer:
// no 5xx; the v3 envelope {error:{code,message,requestId}} on every v3/MCP
// refusal (legacy: its own {error} shape); requestId = X-Request-Id; a refused
// write leaves the database digest unchanged; the server still answers the
// auth test. Seeded: the same seed and count send the same requests.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, KEYS, ROOT, type TestServer } from '../helpers/server';
import { legacyRoutes } from '../../src/legacy/routes';
import { Rng } from './rng';
import { Generator, deepText, mutate, type Json } from './generate';
import { ALL_KEYS, GOOD_KEYS, FIXTURE_GUIDS } from './pools';
import { buildTargets, type Target } from './targets';
import { digest } from './digest';
import { header, rawHead, rawRequest } from './raw-http';

export interface CampaignOptions {
  seed: number;
  /** Requests in all (the auth-test probes are not counted). */
  count: number;
  /** Stop early after this many seconds. */
  seconds: number;
  /** A fresh server (fixture reloaded) every this many requests, so the database stays small. */
  roundSize?: number;
  /** Body limit of the campaign's server (oversized bodies are sent just above it). */
  maxBodyBytes?: number;
  progress?: (line: string) => void;
}

export interface TargetStats {
  requests: number;
  byStatus: Record<string, number>;
  refusedWrites: number;
}

export interface Failure {
  target: string;
  check: string;
  detail: string;
  request: string;
}

export interface CampaignResult {
  seed: number;
  requests: number;
  durationMs: number;
  fiveXx: number;
  crashes: number;
  refusedWrites: number;
  refusedWritesThatChangedData: number;
  envelopeViolations: number;
  internalErrorsLogged: number;
  perTarget: Record<string, TargetStats>;
  variants: Record<string, number>;
  failures: Failure[];
}

const REQUEST_ID_OK = /^[A-Za-z0-9\-_.:+/=]{1,128}$/;
const GENERATED_ID = /^req_[0-9a-f]{32}$/;

const TEMPLATE_DOCS: Json[] = readdirSync(join(ROOT, 'fixtures', 'demo', 'templates')).map((f) => JSON.parse(readFileSync(join(ROOT, 'fixtures', 'demo', 'templates', f), 'utf8')));

type Variant =
  | 'plain'
  | 'dupQuery'
  | 'contentType'
  | 'notJson'
  | 'invalidUtf8'
  | 'topLevelNonObject'
  | 'oversized'
  | 'requestIdInjection'
  | 'pathTraversal'
  | 'unknownQuery'
  | 'deepBody'
  | 'idempotencyKey';

interface Built {
  variant: Variant;
  method: string;
  target: string; // path + query, as sent
  headers: [string, string][];
  body?: Buffer;
  raw: boolean;
  sentRequestId?: string;
  describe: string;
}

/** encodeURIComponent that survives lone surrogates (sent as the UTF-8 of U+FFFD, as a browser would). */
const encodeSegment = (v: string): string => [...Buffer.from(v, 'utf8')].map((c) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(c)) ? String.fromCharCode(c) : '%' + c.toString(16).toUpperCase().padStart(2, '0'))).join('');

const str = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v) ?? '');

function pickKey(rng: Rng): string | null {
  return rng.chance(0.85) ? rng.pick(GOOD_KEYS) : rng.pick(ALL_KEYS);
}

function requestIdHeader(rng: Rng): string | undefined {
  return rng.weighted<() => string | undefined>([
    [6, () => undefined],
    [2, () => `fuzz-${rng.int(0, 1e9)}:a+b/c=d.e_f`],
    [1, () => 'x'.repeat(rng.pick([128, 129, 5000]))],
    [1, () => rng.pick(['has space', 'semi;colon', 'quote"', '<tag>', 'é', '', ',', 'a,b'])],
  ])();
}

function build(rng: Rng, t: Target, gen: Generator, maxBody: number): Built {
  let input = gen.value(t.schema) as Record<string, Json>;
  if (t.op?.bodyAs === 'document' && rng.chance(0.6)) input.document = JSON.parse(JSON.stringify(rng.pick(TEMPLATE_DOCS)));
  const mutations: string[] = [];
  if (rng.chance(0.85)) {
    for (let i = rng.int(1, 3); i > 0; i--) {
      const m = mutate(rng, input, gen);
      mutations.push(m.mutation);
      if (m.mutation === 'deepNesting') i = 0; // a deep value is not copied again
      input = (m.value && typeof m.value === 'object' && !Array.isArray(m.value) ? m.value : { _: m.value }) as Record<string, Json>;
    }
  }
  const variant = rng.weighted<Variant>([
    [58, 'plain'],
    [5, 'dupQuery'],
    [5, 'contentType'],
    [4, 'notJson'],
    [3, 'invalidUtf8'],
    [3, 'topLevelNonObject'],
    [1, 'oversized'],
    [7, 'requestIdInjection'],
    [6, 'pathTraversal'],
    [3, 'unknownQuery'],
    [2, 'deepBody'],
    [3, 'idempotencyKey'],
  ]);
  const key = pickKey(rng);
  const headers: [string, string][] = [];
  if (key !== null) headers.push(['X-API-KEY', key]);
  // Legacy spec 9: v2 routes mostly get the header they need, sometimes none or a wrong one.
  if (t.kind === 'legacy' && (t.legacy?.v2 || rng.chance(0.2))) {
    const version = t.legacy?.v2 && rng.chance(0.85) ? '2.0' : rng.pick(['', '1.0', '2', '3.0', 'v2']);
    if (version) headers.push(['X-API-VERSION', version]);
  }
  let sentRequestId = requestIdHeader(rng);
  let raw = false;

  // Path, query and body from the one input object.
  let path = t.path;
  for (const name of t.pathNames) {
    let v = input[name] === undefined ? '' : str(input[name]);
    if (variant === 'pathTraversal') {
      v = rng.pick(['..', '../..', '..%2F..%2Fauth%2Ftest', '%2e%2e%2f%2e%2e', 'a%2Fb', '%00', '%', '%E0%A4%A', '..\\..\\', v + '/../../auth/test', '%252e%252e', v + '%2F' + v, 'x'.repeat(9000)]);
      raw = true;
    } else v = encodeSegment(v);
    path = path.replace(`:${name}`, v);
  }
  const q = new URLSearchParams();
  const bodyObj: Record<string, Json> = {};
  for (const [k, v] of Object.entries(input)) {
    if (t.pathNames.includes(k)) continue;
    if (t.queryNames.includes(k) || (t.kind === 'legacy' && !t.bodyNames)) {
      if (v !== undefined) q.append(k, str(v));
    } else bodyObj[k] = v;
  }
  if (variant === 'dupQuery') {
    const names = t.queryNames.length ? t.queryNames : ['pageSize'];
    const n = rng.pick(names);
    q.append(n, str(gen.anyValue()));
    q.append(n, str(gen.anyValue()));
  }
  if (variant === 'unknownQuery') q.append(rng.pick(['__proto__', 'workspaceId', 'x', 'constructor[prototype]', 'a[]']), str(gen.anyValue()));
  const qs = q.toString();
  const target = path + (qs ? `?${qs}` : '');

  let body: Buffer | undefined;
  const wantsBody = t.method !== 'GET';
  if (wantsBody && t.kind === 'rest') {
    const value: Json | undefined = t.op?.bodyAs ? input[t.op.bodyAs] : Object.keys(bodyObj).length || rng.chance(0.5) ? bodyObj : undefined;
    if (value !== undefined) body = Buffer.from(JSON.stringify(value) ?? 'null');
  } else if (wantsBody && t.kind === 'legacy' && rng.chance(t.bodyNames ? 0.9 : 0.2)) body = Buffer.from(JSON.stringify(bodyObj));
  // The legacy JSON content types (legacy spec 4.1) as well as application/json.
  let contentType: string | undefined = body ? (t.kind === 'legacy' && rng.chance(0.3) ? rng.pick(['text/json', 'application/json-patch+json', 'application/*+json']) : 'application/json') : undefined;
  switch (variant) {
    case 'contentType':
      contentType = rng.pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/json; charset=latin1', '', 'application/jsonx']);
      body ??= Buffer.from('{}');
      break;
    case 'notJson':
      body = Buffer.from(rng.pick(['{', '{"a":', 'not json', "{'a':1}", '{"a":1,}', '\u0000', 'NaN', '[1,2', '{"a":1}{"b":2}']));
      contentType = 'application/json';
      break;
    case 'invalidUtf8':
      body = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]), Buffer.from('"}')]);
      contentType = 'application/json';
      break;
    case 'topLevelNonObject':
      body = Buffer.from(rng.pick(['[]', '[{}]', '"x"', '1', 'null', 'true']));
      contentType = 'application/json';
      break;
    case 'oversized':
      body = Buffer.concat([Buffer.from('{"name":"'), Buffer.alloc(maxBody + 1, 0x61), Buffer.from('"}')]);
      contentType = 'application/json';
      break;
    case 'deepBody':
      body = Buffer.from(deepText(rng.pick([5000, 100_000]), rng.chance(0.5) ? 'array' : 'object'));
      contentType = 'application/json';
      break;
    case 'idempotencyKey':
      headers.push(['Idempotency-Key', rng.pick([`idem-${rng.int(0, 50)}`, 'k'.repeat(256), ''])]);
      break;
    case 'requestIdInjection':
      raw = true;
      sentRequestId = undefined;
      headers.push(
        ...rng.pick<[string, string][]>([
          [['X-Request-Id', 'abc\rX-Injected: 1']],
          [['X-Request-Id', 'abc%0d%0aSet-Cookie: a=b']],
          [['X-Request-Id', 'caf\u00e9-\u00ff']],
          [['X-Request-Id', 'one'], ['X-Request-Id', 'two']],
          [['X-Request-Id', ' padded ']],
          [['X-Request-Id', 'a'.repeat(128)]],
          [['X-Request-Id', '\u0001\u0002']],
          [['X-Request-Id', 'ok-id'], ['X-API-KEY', KEYS.globexAdmin]],
        ]),
      );
      break;
    default:
      break;
  }
  if (contentType !== undefined && contentType !== '') headers.push(['Content-Type', contentType]);
  if (body && t.method === 'GET') raw = true; // fetch sends no body with GET; a raw client may
  if (sentRequestId !== undefined) {
    headers.push(['X-Request-Id', sentRequestId]);
    // fetch refuses non-ByteString values; send those raw.
    if (/[^\x20-\x7e]/.test(sentRequestId) || sentRequestId !== sentRequestId.trim()) raw = true;
  }
  return { variant, method: t.method, target, headers, body, raw, sentRequestId, describe: `${t.method} ${target.slice(0, 300)} [${variant}${mutations.length ? ' ' + mutations.join(',') : ''}] key=${key}` };
}

function buildMcp(rng: Rng, t: Target, gen: Generator, id: number): Built {
  let args = gen.value(t.schema) as Record<string, Json>;
  if (t.op?.bodyAs === 'document' && rng.chance(0.6)) args.document = JSON.parse(JSON.stringify(rng.pick(TEMPLATE_DOCS)));
  const mutations: string[] = [];
  if (rng.chance(0.85)) {
    for (let i = rng.int(1, 3); i > 0; i--) {
      const m = mutate(rng, args, gen);
      mutations.push(m.mutation);
      if (m.mutation === 'deepNesting') i = 0;
      args = (m.value && typeof m.value === 'object' && !Array.isArray(m.value) ? m.value : { _: m.value }) as Record<string, Json>;
    }
  }
  const variant: Variant = rng.weighted<Variant>([
    [85, 'plain'],
    [5, 'notJson'],
    [5, 'topLevelNonObject'],
    [5, 'idempotencyKey'],
  ]);
  let payload: string;
  const call = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: t.op!.tool!, arguments: args as Json } };
  if (variant === 'notJson') payload = rng.pick(['{', '{"jsonrpc":"2.0"', 'null']);
  else if (variant === 'topLevelNonObject')
    payload = JSON.stringify(
      rng.pick<Json>([
        [call],
        { ...call, params: { name: t.op!.tool!, arguments: [1, 2] } },
        { ...call, params: { name: t.op!.tool! + 'x', arguments: {} } },
        { ...call, method: 'tools/nope' },
        { jsonrpc: '2.0', method: 'tools/call', params: call.params },
      ]),
    );
  else {
    if (variant === 'idempotencyKey') (call.params.arguments as Record<string, Json>).idempotencyKey = rng.pick(['k'.repeat(256), 'idem-1', 5]);
    payload = JSON.stringify(call);
  }
  const key = pickKey(rng);
  const headers: [string, string][] = [
    ['Content-Type', 'application/json'],
    ['Accept', 'application/json, text/event-stream'],
  ];
  if (key !== null) headers.push(['X-API-KEY', key]);
  const sentRequestId = requestIdHeader(rng);
  let raw = false;
  if (sentRequestId !== undefined) {
    headers.push(['X-Request-Id', sentRequestId]);
    if (/[^\x20-\x7e]/.test(sentRequestId) || sentRequestId !== sentRequestId.trim()) raw = true;
  }
  return { variant, method: 'POST', target: '/mcp', headers, body: Buffer.from(payload), raw, sentRequestId, describe: `MCP ${t.op!.tool} ${payload.slice(0, 300)} [${variant}${mutations.length ? ' ' + mutations.join(',') : ''}] key=${key}` };
}

interface Answer {
  status: number;
  requestId: string | undefined;
  contentType: string | undefined;
  text: string;
}

async function send(base: string, b: Built): Promise<Answer> {
  if (b.raw) {
    const u = new URL(base);
    const head = rawHead(b.method, b.target, b.headers, b.body ? b.body.length : b.method === 'GET' ? undefined : 0);
    const a = await rawRequest(u.hostname, Number(u.port), head, b.body);
    return { status: a.status, requestId: header(a, 'x-request-id'), contentType: header(a, 'content-type'), text: a.body.toString('utf8') };
  }
  let res: Response;
  try {
    res = await fetch(base + b.target, { method: b.method, headers: b.headers, body: b.body ? new Uint8Array(b.body) : undefined });
  } catch {
    // fetch gives up when the server answers (413, 431) and closes before the body is sent; the raw client reads that answer.
    return send(base, { ...b, raw: true });
  }
  const text = await res.text();
  return { status: res.status, requestId: res.headers.get('x-request-id') ?? undefined, contentType: res.headers.get('content-type') ?? undefined, text };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Checks one answer; returns the problems and whether the request was refused. */
function check(t: Target, b: Built, a: Answer): { problems: [string, string][]; refused: boolean } {
  const problems: [string, string][] = [];
  if (a.status >= 500) problems.push(['5xx', `${a.status} ${a.text.slice(0, 300)}`]);
  // Refused by the HTTP parser before headers could be read (431, 408, malformed HTTP): a generated id.
  const beforeHeaders = a.status === 431 || a.status === 408 || (a.status === 400 && /could not be parsed|not valid HTTP/.test(a.text));
  if (!a.requestId) problems.push(['requestIdHeader', 'no X-Request-Id on the answer']);
  else if (!beforeHeaders && b.sentRequestId !== undefined && REQUEST_ID_OK.test(b.sentRequestId) && a.requestId !== b.sentRequestId) problems.push(['requestIdHeader', `sent ${b.sentRequestId}, got ${a.requestId}`]);
  else if (!(b.sentRequestId !== undefined && a.requestId === b.sentRequestId) && !GENERATED_ID.test(a.requestId) && !REQUEST_ID_OK.test(a.requestId)) problems.push(['requestIdHeader', `unusable id ${JSON.stringify(a.requestId)}`]);
  if (a.requestId && /[\r\n]/.test(a.requestId)) problems.push(['requestIdHeader', 'CR/LF in X-Request-Id']);
  const body = parse(a.text) as Record<string, unknown> | undefined;
  let refused = a.status >= 300;
  const pathSent = b.target.split('?')[0];
  const legacyShaped = pathSent.toLowerCase().startsWith('/api/');
  const envelope = (e: unknown, where: string) => {
    const err = (e as { error?: Record<string, unknown> } | undefined)?.error;
    if (!err || typeof err !== 'object') return problems.push(['envelope', `${where}: no error object: ${a.text.slice(0, 200)}`]);
    if (typeof err.code !== 'string' || typeof err.message !== 'string') problems.push(['envelope', `${where}: code/message missing: ${a.text.slice(0, 200)}`]);
    if (err.requestId !== a.requestId) problems.push(['envelope', `${where}: requestId ${String(err.requestId)} != header ${a.requestId}`]);
  };
  if (t.kind === 'mcp') {
    if (a.status >= 300) {
      // Refused before MCP (key, region, size): the v3 envelope; a JSON-RPC parse error is the protocol's own answer.
      if (!(body && (body as { jsonrpc?: unknown }).jsonrpc === '2.0')) envelope(body, 'mcp http');
    } else if (a.status === 200) {
      const rpc = (Array.isArray(body) ? body[0] : body) as { result?: { isError?: boolean; structuredContent?: unknown; content?: { text?: string }[] }; error?: unknown } | undefined;
      if (!rpc) problems.push(['envelope', `mcp: unparsable answer ${a.text.slice(0, 200)}`]);
      else if (rpc.error) refused = true;
      else if (rpc.result?.isError) {
        refused = true;
        envelope(rpc.result.structuredContent, 'mcp tool');
        const text = rpc.result.content?.[0]?.text ?? '';
        if (!text.endsWith(`requestId: ${a.requestId}`)) problems.push(['envelope', `mcp tool text does not end with the requestId: ${text.slice(0, 200)}`]);
      }
    } else refused = true; // 202: nothing ran
  } else if (a.status >= 300) {
    if (legacyShaped) {
      const e = body?.error;
      if (!(typeof e === 'string' || (e && typeof e === 'object'))) problems.push(['envelope', `legacy: no error in ${a.text.slice(0, 200)}`]);
      if (e && typeof e === 'object') envelope(body, 'legacy (v3 envelope)');
    } else envelope(body, 'rest');
    if (a.contentType && !/^application\/json/.test(a.contentType)) problems.push(['envelope', `content type ${a.contentType}`]);
  }
  return { problems, refused };
}

const GUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
function harvest(text: string): void {
  const found = text.slice(0, 20_000).match(GUIDS);
  if (!found) return;
  for (const g of found.slice(0, 20)) if (!FIXTURE_GUIDS.includes(g)) Generator.harvested.push(g);
  if (Generator.harvested.length > 300) Generator.harvested.splice(0, Generator.harvested.length - 300);
}

/** Runs the campaign against fresh in-process servers; never throws for a finding (they are in `failures`). */
export async function runCampaign(opts: CampaignOptions): Promise<CampaignResult> {
  const rng = new Rng(opts.seed);
  Generator.harvested = [];
  const roundSize = opts.roundSize ?? 5000;
  const maxBody = opts.maxBodyBytes ?? 1024 * 1024;
  const started = Date.now();
  const result: CampaignResult = {
    seed: opts.seed,
    requests: 0,
    durationMs: 0,
    fiveXx: 0,
    crashes: 0,
    refusedWrites: 0,
    refusedWritesThatChangedData: 0,
    envelopeViolations: 0,
    internalErrorsLogged: 0,
    perTarget: {},
    variants: {},
    failures: [],
  };
  const fail = (target: string, checkName: string, detail: string, request: string) => {
    if (result.failures.length < 200) result.failures.push({ target, check: checkName, detail, request });
  };
  const uncaught = (e: unknown) => {
    result.crashes++;
    fail('process', 'uncaught', String(e instanceof Error ? e.stack : e), '');
  };
  process.on('uncaughtException', uncaught);
  process.on('unhandledRejection', uncaught);
  let s: TestServer | undefined;
  try {
    while (result.requests < opts.count && Date.now() - started < opts.seconds * 1000) {
      s = await startTestServer({
        standardBudget: 1e9,
        cheapBudget: 1e9,
        maxBodyBytes: maxBody,
        webhooks: { timeoutMs: 300, maxAttempts: 1, retryBaseMs: 60_000 },
        // The upgrade worker rebuilds checklists in the background once the clock moves (the
        // campaign moves it past 429s): never due here, so no rebuild lands between two digests.
        upgrades: { delayMs: 1e12 },
        log: (line) => {
          if (/internal error/i.test(line)) {
            result.internalErrorsLogged++;
            fail('log', 'internalError', line.slice(0, 1000), '');
          }
        },
      });
      const emu = s.emu;
      const targets = buildTargets(emu.ops, legacyRoutes);
      const gens = new Map(targets.map((t) => [t.id, new Generator(rng, t.schema, t.path)]));
      let known: string | undefined = digest(emu.db);
      const roundEnd = Math.min(opts.count, result.requests + roundSize);
      let mcpId = 1;
      while (result.requests < roundEnd && Date.now() - started < opts.seconds * 1000) {
        // Every target once first (so a bounded run still aims at all of them), then at random.
        const t = result.requests < targets.length ? targets[result.requests] : rng.pick(targets);
        const gen = gens.get(t.id)!;
        const b = t.kind === 'mcp' ? buildMcp(rng, t, gen, mcpId++) : build(rng, t, gen, maxBody);
        // Mostly the key's own region (so requests get past 421), sometimes the other.
        const globex = b.headers.some(([k, v]) => k === 'X-API-KEY' && v.startsWith('globex'));
        const base = rng.chance(0.9) === globex ? s.eu : s.us;
        if (t.write && known === undefined) known = digest(emu.db);
        const before: string | undefined = known;
        let a: Answer;
        try {
          a = await send(base, b);
        } catch (e) {
          // No answer at all: the connection was dropped. Counted as a crash only if the server is gone.
          fail(t.id, 'noAnswer', String(e), b.describe);
          a = { status: 0, requestId: undefined, contentType: undefined, text: '' };
        }
        result.requests++;
        result.variants[b.variant] = (result.variants[b.variant] ?? 0) + 1;
        const st = (result.perTarget[t.id] ??= { requests: 0, byStatus: {}, refusedWrites: 0 });
        st.requests++;
        if (a.status !== 0) {
          const { problems, refused } = check(t, b, a);
          // An MCP tool refusal travels in a 200: counted as `tool-error` (a 4xx column).
          const label = t.kind === 'mcp' && a.status === 200 && refused ? 'tool-error' : String(a.status);
          st.byStatus[label] = (st.byStatus[label] ?? 0) + 1;
          if (!refused && a.status < 300) harvest(a.text);
          for (const [name, detail] of problems) {
            if (name === '5xx') result.fiveXx++;
            else result.envelopeViolations++;
            fail(t.id, name, detail, b.describe);
          }
          if (t.write && refused) {
            st.refusedWrites++;
            result.refusedWrites++;
            const after = digest(emu.db);
            if (after !== before) {
              result.refusedWritesThatChangedData++;
              fail(t.id, 'refusedWriteChangedData', `status ${a.status}: ${a.text.slice(0, 300)}`, b.describe);
            }
            known = after;
          } else known = undefined;
          if (a.status === 429) emu.clock.advance(61_000); // the invalid-key throttle (spec v3 8): wait the minute out
        } else st.byStatus['0'] = (st.byStatus['0'] ?? 0) + 1;
        if (result.requests % 500 === 0 || a.status === 0) {
          let alive = await s.api(KEYS.admin, 'GET', '/v3/auth/test').catch(() => undefined);
          if (alive?.status === 429) {
            // The invalid-key throttle of this address (spec v3 8) answered: alive; let its minute pass and ask again.
            emu.clock.advance(61_000);
            alive = await s.api(KEYS.admin, 'GET', '/v3/auth/test').catch(() => undefined);
          }
          if (!alive || alive.status !== 200) {
            result.crashes++;
            fail(t.id, 'crash', `auth test after this request answered ${alive?.status ?? 'nothing'}`, b.describe);
            break;
          }
          known = undefined;
        }
        if (result.requests % 5000 === 0) opts.progress?.(`  ${result.requests} requests, ${Math.round((Date.now() - started) / 1000)} s, failures ${result.failures.length}, rss ${Math.round(process.memoryUsage().rss / 1e6)} MB`);
      }
      await s.close();
      s = undefined;
    }
  } finally {
    process.off('uncaughtException', uncaught);
    process.off('unhandledRejection', uncaught);
    if (s) await s.close();
  }
  result.durationMs = Date.now() - started;
  return result;
}

/** The per-target table the CLI and docs/reliability.md print. */
export function report(r: CampaignResult): string {
  const lines: string[] = [];
  lines.push(`seed ${r.seed}: ${r.requests} requests in ${(r.durationMs / 1000).toFixed(1)} s`);
  lines.push(`5xx ${r.fiveXx}, crashes ${r.crashes}, envelope/requestId violations ${r.envelopeViolations}, internal errors logged ${r.internalErrorsLogged}`);
  lines.push(`refused writes ${r.refusedWrites}, of which changed data ${r.refusedWritesThatChangedData}`);
  lines.push('');
  lines.push('| target | requests | 2xx | 4xx | 5xx | refused writes | statuses |');
  lines.push('|---|---:|---:|---:|---:|---:|---|');
  for (const [id, st] of Object.entries(r.perTarget).sort(([a], [b]) => a.localeCompare(b))) {
    const sum = (f: (s: number) => boolean) => Object.entries(st.byStatus).reduce((n, [k, v]) => n + (f(k === 'tool-error' ? 400 : Number(k)) ? v : 0), 0);
    const statuses = Object.entries(st.byStatus)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}:${v}`)
      .join(' ');
    lines.push(`| ${id} | ${st.requests} | ${sum((x) => x >= 200 && x < 300)} | ${sum((x) => x >= 400 && x < 500)} | ${sum((x) => x >= 500)} | ${st.refusedWrites} | ${statuses} |`);
  }
  lines.push('');
  lines.push('variants: ' + Object.entries(r.variants).map(([k, v]) => `${k} ${v}`).join(', '));
  return lines.join('\n');
}

export { FIXTURE_GUIDS };
