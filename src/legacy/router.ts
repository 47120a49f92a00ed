// The legacy API at /api/* (legacy spec 4, 5, 9), a transport over the one request
// path (src/pipeline/run.ts) with the legacy rules: not charged to the v3 rate
// budgets, not regional (a key of either region works on both addresses), and any
// bad key is one 401 (legacy does not distinguish revoked, expired or unavailable
// keys). The version comes from X-API-VERSION (default 1.0). Refusals are converted
// here, once, into legacy bodies `{ error: <message> }`.
import { z } from 'zod';
import type { Emulator } from '../emulator';
import type { MethodRefusal, RouteSpec } from '../transports/http/route-table';
import { ApiError, infraError, storageCode } from '../errors';
import { LEGACY_RULES, runCall, type Answer } from '../pipeline';
import { Reply, type Operation } from '../operations/define';
import { ADMINS_ONLY } from '../operations/webhooks';
import { readBodyBytes } from '../transports/web/body';
import { LegacyReply, legacyError, type LegacyRequest, type LegacyRoute } from './define';

const JSON_TYPE = 'application/json; charset=utf-8';

function reply(r: LegacyReply, requestId: string): Response {
  const headers: Record<string, string> = { 'X-Request-Id': requestId, ...r.headers };
  if (r.body === undefined) return new Response(null, { status: r.status, headers });
  if (typeof r.body === 'string') return new Response(r.body, { status: r.status, headers });
  if (Buffer.isBuffer(r.body)) return new Response(new Uint8Array(r.body), { status: r.status, headers });
  return new Response(JSON.stringify(r.body), { status: r.status, headers: { 'Content-Type': JSON_TYPE, ...headers } });
}

/** X-API-VERSION: absent = 1.0; 1, 1.0, 2, 2.0 accepted; anything else is unsupported. */
export function apiVersion(header: string | null): 1 | 2 | undefined {
  if (header === null || header.trim() === '') return 1;
  const v = header.trim();
  if (v === '1' || v === '1.0') return 1;
  if (v === '2' || v === '2.0') return 2;
  return undefined;
}

const MULTIPART = /^multipart\//i;

/** The body within the shared size limit; JSON unless it is a multipart upload. */
async function readBody(req: Request, maxBytes: number): Promise<{ body: unknown; rawBody: Buffer }> {
  if (req.method === 'GET') return { body: undefined, rawBody: Buffer.alloc(0) };
  const rawBody = await readBodyBytes(req, maxBytes);
  // A multipart upload stays bytes (never a second copy as text).
  if (MULTIPART.test(req.headers.get('content-type') ?? '')) return { body: undefined, rawBody };
  const text = rawBody.toString('utf8');
  if (text.trim() === '') return { body: undefined, rawBody };
  try {
    return { body: JSON.parse(text), rawBody };
  } catch {
    throw legacyError(400, 'The request body is not valid JSON.');
  }
}

const LegacyInput = { request: z.custom<LegacyRequest>(() => true) };

/** A legacy route as an operation of the request path (built once per route). */
const operations = new WeakMap<LegacyRoute, Operation>();
function operationOf(route: LegacyRoute): Operation {
  let op = operations.get(route);
  if (!op) {
    op = {
      id: `legacy ${route.method} ${route.path}`,
      noTool: 'legacy API',
      method: route.method,
      path: route.path,
      summary: `${route.method} ${route.path}`,
      // Legacy routes are outside the v3 operation table and its fidelity list; docs/legacy.md marks their designed shapes.
      fidelity: { mark: 'mixed', source: 'spec legacy-v1-v2; docs/legacy.md', designed: 'the objects the legacy spec does not show' },
      input: LegacyInput,
      budget: 'standard',
      annotations: { readOnlyHint: route.method === 'GET', idempotentHint: route.method !== 'POST', destructiveHint: route.method === 'DELETE' },
      actor: route.admin ? 'admin' : 'any',
      // Only the webhook routes are for Administrators (docs/legacy.md), refused as their v3 routes are.
      adminRefusal: route.admin ? ADMINS_ONLY : undefined,
      handler: (ctx, input) => {
        const out = route.handler(ctx, (input as { request: LegacyRequest }).request);
        return out instanceof LegacyReply ? new Reply(out.status, out.body, out.headers) : out;
      },
    };
    operations.set(route, op);
  }
  return op;
}

/** The legacy boundary: the pipeline's answer or refusal in legacy shapes. */
function legacyAnswer(answer: Answer, requestId: string, emu: Emulator): Response {
  if (answer.ok) return reply(new LegacyReply(answer.status, answer.body, answer.headers), requestId);
  const e = infraError(answer.error) ?? answer.error;
  if (e instanceof LegacyReply) return reply(e, requestId);
  // A storage refusal carries its code beside the legacy message (docs/reliability.md 10).
  if (e instanceof ApiError && e.status === 503) return reply(new LegacyReply(503, storageCode(answer.error) ? { error: e.message, code: e.code } : { error: e.message }, e.headers), requestId);
  if (e instanceof ApiError && e.status === 401) return reply(legacyError(401, 'The API key is missing or invalid.'), requestId);
  if (e instanceof ApiError && e.status < 500) return reply(legacyError(e.status, e.message), requestId);
  emu.log(`[${requestId}] legacy internal error: ${e instanceof Error ? e.stack : String(e)}`);
  return reply(legacyError(500, 'The emulator failed to handle this request. This is a bug in the emulator.'), requestId);
}

/** Path parameters decoded (a malformed escape is kept as sent). */
function decoded(params: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    try {
      out[k] = decodeURIComponent(v);
    } catch {
      out[k] = v;
    }
  }
  return out;
}

/** A method no legacy route of the path takes: 405 in the legacy shape. */
const refuseMethod: MethodRefusal = (method, path, _allowed, info) => reply(legacyError(405, `${method} is not allowed on ${path}.`), info.requestId);

/**
 * The legacy routes as entries of the one route table: literal segments in any case, the
 * route with the most literal segments first (the table's `addRanked`), so
 * DELETE /api/data-sets/x/records/bulk is bulk delete, not the record "bulk".
 */
export function legacyRouteSpecs(routes: LegacyRoute[]): RouteSpec[] {
  return routes.map((route) => ({
    method: route.method,
    path: route.path,
    family: 'legacy',
    caseInsensitive: true,
    refuseMethod,
    handler: async (req, { emu, info, params: raw }) => {
      const url = new URL(req.url);
      const params = decoded(raw);
      const answer = await runCall(
        emu,
        {
          op: operationOf(route),
          info: { ...info, transport: 'legacy', idempotencyKey: null },
          readInput: async (maxBytes) => {
            const version = apiVersion(req.headers.get('x-api-version'));
            if (version === undefined) throw legacyError(400, `X-API-VERSION ${req.headers.get('x-api-version')} is not supported; send 1.0 or 2.0.`);
            if (route.v2 && version !== 2) throw legacyError(400, `${route.method} ${url.pathname} needs X-API-VERSION: 2.0.`);
            route.refuseFirst?.(emu.db, params);
            const { body, rawBody } = await readBody(req, maxBytes);
            const request: LegacyRequest = { query: url.searchParams, body, headers: req.headers, version, contentType: req.headers.get('content-type'), rawBody, params };
            return { request };
          },
        },
        LEGACY_RULES,
      );
      return legacyAnswer(answer, info.requestId, emu);
    },
  }));
}
