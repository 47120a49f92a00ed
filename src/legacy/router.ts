// The legacy API at /api/* (legacy spec 4, 5, 9): authenticated with X-API-KEY
// (any bad key is 401: legacy does not distinguish revoked, expired or
// unavailable keys), version chosen by X-API-VERSION (default 1.0), not charged to
// the v3 rate budgets, not regional (a key of either region works on both addresses).
import type { Emulator } from '../emulator';
import type { ExtraRoute } from '../transports/http/app';
import { ApiError } from '../errors';
import { makeCtx } from '../pipeline';
import { LegacyReply, legacyError, matchLegacyRoute, type LegacyRequest, type LegacyRoute } from './define';

const JSON_TYPE = 'application/json; charset=utf-8';

function reply(r: LegacyReply, requestId: string): Response {
  const headers: Record<string, string> = { 'X-Request-Id': requestId, ...r.headers };
  if (r.body === undefined) return new Response(null, { status: r.status, headers });
  // [datasets, issue 13] a Buffer body (CSV export) is written as is, with the reply's own Content-Type.
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

// [datasets, issue 13] multipart/form-data (the Data Set CSV import) is not JSON: its bytes go to the handler as rawBody.
const isMultipart = (req: Request) => (req.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/');

async function readBody(req: Request): Promise<unknown> {
  if (req.method === 'GET' || isMultipart(req)) return undefined;
  const text = await req.text();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw legacyError(400, 'The request body is not valid JSON.');
  }
}

export function legacyRouter(routes: LegacyRoute[]): ExtraRoute {
  return async (req, info, emu: Emulator) => {
    const url = new URL(req.url);
    // [datasets, issue 13] paths may hold :name segments (matchLegacyRoute in define.ts); literal paths win.
    const match = matchLegacyRoute(routes, req.method, url.pathname);
    if (!match.candidates) return undefined; // another area's legacy handler may answer
    try {
      const route = match.route;
      if (!route) return reply(legacyError(405, `${req.method} is not allowed on ${url.pathname}.`), info.requestId);
      let principal;
      try {
        principal = emu.keys.resolve(info.apiKey, emu.clock.now());
      } catch (e) {
        if (e instanceof ApiError && e.status === 401) return reply(legacyError(401, 'The API key is missing or invalid.'), info.requestId);
        throw e;
      }
      const version = apiVersion(req.headers.get('x-api-version'));
      if (version === undefined) return reply(legacyError(400, `X-API-VERSION ${req.headers.get('x-api-version')} is not supported; send 1.0 or 2.0.`), info.requestId);
      if (route.v2 && version !== 2) return reply(legacyError(400, `${route.method} ${route.path} needs X-API-VERSION: 2.0.`), info.requestId);
      if (route.admin && principal.actor.kind === 'member' && !principal.actor.isAdmin) {
        return reply(legacyError(403, 'Only Administrators may use webhook routes. An Administrator can create a key that acts as an Administrator or as the workspace.'), info.requestId);
      }
      const lreq: LegacyRequest = { query: url.searchParams, body: await readBody(req), headers: req.headers, version, params: match.params };
      // [datasets, issue 13] raw bytes and content type for multipart bodies (CSV import).
      if (isMultipart(req)) Object.assign(lreq, { rawBody: Buffer.from(await req.arrayBuffer()), contentType: req.headers.get('content-type') ?? undefined });
      const ctx = makeCtx(emu, principal, info);
      const run = () => route.handler(ctx, lreq);
      const result = req.method === 'GET' ? run() : emu.db.transaction(run)();
      return reply(result instanceof LegacyReply ? result : new LegacyReply(200, result), info.requestId);
    } catch (e) {
      if (e instanceof LegacyReply) return reply(e, info.requestId);
      if (e instanceof ApiError && e.status < 500) return reply(legacyError(e.status, e.message), info.requestId);
      emu.log(`[${info.requestId}] legacy internal error: ${e instanceof Error ? e.stack : String(e)}`);
      return reply(legacyError(500, 'The emulator failed to handle this request. This is a bug in the emulator.'), info.requestId);
    }
  };
}
