// The legacy API at /api/* (legacy spec 4, 5, 9), a transport over the one request
// path (src/pipeline/run.ts) with the legacy rules: not charged to the v3 rate
// budgets, not regional (a key of either region works on both addresses), and any
// bad key is one 401 (legacy does not distinguish revoked, expired or unavailable
// keys). The version comes from X-API-VERSION (default 1.0). Refusals are ApiErrors like
// every other; the boundary writes them once as legacy bodies `{ error: <message> }`.
import { z } from 'zod';
import type { MethodRefusal, RouteSpec } from '../transports/http/route-table';
import { LEGACY_RULES, runCall } from '../pipeline';
import type { Operation } from '../operations/define';
import { ADMINS_ONLY } from '../operations/webhooks';
import { readBodyBytes } from '../transports/web/body';
import { answerParts, errorResponse, toResponse } from '../transports/web/respond';
import { legacyError, type LegacyRequest, type LegacyRoute } from './define';

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
      handler: (ctx, input) => route.handler(ctx, (input as { request: LegacyRequest }).request),
    };
    operations.set(route, op);
  }
  return op;
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
const refuseMethod: MethodRefusal = (method, path, _allowed, info) => errorResponse(legacyError(405, `${method} is not allowed on ${path}.`), info.requestId, {}, undefined, 'legacy');

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
      // The legacy boundary: the answer or refusal in legacy shapes (respond.ts, family 'legacy').
      return toResponse(answerParts(answer, info.requestId, emu.log, 'legacy'));
    },
  }));
}
