import type { IncomingHttpHeaders } from 'node:http';
// The fetch-shaped core of one regional address: /v3 (REST), /mcp, /_emulator,
// /api (legacy). The node:http adapter lives in server.ts.
import { ApiError } from '../../errors';
import type { Emulator } from '../../emulator';
import type { Region } from '../../context';
import type { CallInfo } from '../../pipeline';
import { allowedMethods, buildRestRouter } from './rest';
import { errorResponse, json, requestIdFrom } from './respond';
import { openApiDocument } from '../../openapi';
import { adminGate } from '../../control/gate';
import { withJournal, type JournalMark } from '../../platform/journal';
import { injectFault } from '../../faults/inject';

export type ExtraRoute = (req: Request, info: CallInfo, emu: Emulator) => Promise<Response | undefined> | Response | undefined;

/** Prefix handlers other areas register (control routes, legacy API). */
export interface AppExtensions {
  /** Handlers for /_emulator/* (control routes, webhook deliveries): first answer wins. */
  emulator: ExtraRoute[];
  /** Handlers for /api/* (legacy v1/v2). */
  legacy: ExtraRoute[];
  /** Handlers for anything else outside /v3 and /mcp (file downloads, share pages). */
  other: ExtraRoute[];
}

export const emptyExtensions = (): AppExtensions => ({ emulator: [], legacy: [], other: [] });
const LEGACY_PREFIX = /^\/api\//i;

async function first(routes: ExtraRoute[], req: Request, info: CallInfo, emu: Emulator): Promise<Response | undefined> {
  for (const r of routes) {
    const res = await r(req, info, emu);
    if (res) return res;
  }
  return undefined;
}

/** A header from node's IncomingHttpHeaders, joined like Headers.get joins repeats. */
const headerOf = (raw: IncomingHttpHeaders) => (name: string): string | null => {
  const v = raw[name];
  return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
};

export function createFetch(emu: Emulator, region: Region, ext: AppExtensions = emptyExtensions()) {
  const router = buildRestRouter(emu.ops);
  let openapi: string | undefined;
  const handle = async (req: Request, sourceIp: string, journal?: JournalMark, raw?: IncomingHttpHeaders): Promise<Response> => {
    const header = raw ? headerOf(raw) : (name: string) => req.headers.get(name);
    const url = new URL(req.url);
    const requestId = requestIdFrom(header('x-request-id'));
    if (journal) journal.requestId = requestId;
    const info: CallInfo = {
      requestId,
      apiKey: header('x-api-key'),
      region,
      sourceIp,
      timezoneHeader: header('x-svc-timezone'),
      idempotencyKey: header('idempotency-key'),
      transport: 'rest',
      pathAndQuery: url.pathname + url.search,
      journal,
    };
    const path = url.pathname;
    try {
      // Injected faults (src/faults): only when a rule exists; may delay, answer or drop.
      if (emu.faults.size > 0 && !path.startsWith('/_emulator')) {
        const injected = await injectFault(emu, req, path, info);
        if (injected) return injected;
      }
      if (path === '/v3/openapi.json') {
        if (req.method !== 'GET') throw new ApiError(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${path}. Allowed: GET.`, {}, { Allow: 'GET' });
        openapi ??= JSON.stringify(openApiDocument(emu.ops, emu.baseUrls));
        return new Response(openapi, { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': requestId } });
      }
      // The MCP SDK is loaded by the first /mcp request, not at start-up (measured: ~10% of start-up CPU).
      if (path === '/mcp' || path === '/mcp/') return await (await import('../mcp/http')).handleMcpHttp(emu, req, { ...info, transport: 'mcp' });
      if (path.startsWith('/v3/') || path === '/v3') {
        const res: Response | undefined = await router.fetch(req as never, { emu, info });
        if (res) return res;
      } else {
        const control = path.startsWith('/_emulator');
        if (control) adminGate(emu, req); // --no-admin: 404; --admin-token: 401 without it
        // Legacy paths match case-insensitively, their /api prefix too (docs/legacy.md).
        const routes = control ? ext.emulator : LEGACY_PREFIX.test(path) ? ext.legacy : ext.other;
        const r = await first(routes, req, info, emu);
        if (r) return r;
      }
      const allowed = allowedMethods(emu.ops, path);
      if (allowed.length > 0) {
        throw new ApiError(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${path}. Allowed: ${allowed.join(', ')}.`, {}, { Allow: allowed.join(', ') });
      }
      throw new ApiError(404, 'NOT_FOUND', `No route matches ${req.method} ${path}.`);
    } catch (e) {
      return errorResponse(e, requestId, {}, emu.log);
    }
  };
  return withJournal(emu, region, handle);
}

export { json };
