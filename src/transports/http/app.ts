import type { IncomingHttpHeaders } from 'node:http';
// The fetch-shaped core of one regional address: /v3 (REST), /mcp, /_emulator,
// /api (legacy). The node:http adapter lives in server.ts.
import { ApiError } from '../../errors';
import type { Emulator } from '../../emulator';
import type { Region } from '../../context';
import type { CallInfo } from '../../pipeline';
import { restHandler } from './rest';
import { errorResponse, json, JSON_TYPE } from '../web/respond';
import { callInfoFrom, headerValue } from './call-info';
import { RouteTable, type RouteFamily, type RouteSpec } from './route-table';
import type { EdgeFacts, EdgePolicy } from './origin';
import { openApiDocument } from '../../openapi';
import { withJournal, type JournalMark } from '../../platform/journal';

export type ExtraRoute = (req: Request, info: CallInfo, emu: Emulator) => Promise<Response | undefined> | Response | undefined;

/**
 * A handler of the request chain: what crosses every request (the Host and Origin check,
 * faults, the admin gate), run in order before routing, registered in one place
 * (src/edge.ts). No transport imports one.
 */
export interface ChainHandler {
  name: string;
  /**
   * A check from the headers alone, run first by every entry (the socket, before the node
   * fast path; the library's in-process fetch) against that entry's addresses. A refusal
   * is answered in the shape of the path's family (origin.ts refusalParts).
   */
  guard?: (facts: EdgeFacts, policy: EdgePolicy) => ApiError | null;
  /** Runs on the fetch path before routing: an answer stops the request there; undefined carries on; a thrown ApiError refuses it. */
  handle?: (req: Request, call: { emu: Emulator; info: CallInfo; path: string }) => Promise<Response | undefined> | Response | undefined;
}

/** The chain's guards as one check: the first refusal, or null. */
export function guardOf(chain: ChainHandler[]): (facts: EdgeFacts, policy: EdgePolicy) => ApiError | null {
  const guards = chain.flatMap((h) => (h.guard ? [h.guard] : []));
  return (facts, policy) => {
    for (const g of guards) {
      const refused = g(facts, policy);
      if (refused) return refused;
    }
    return null;
  };
}

/** Prefix handlers other areas register (control routes, legacy API). */
export interface AppExtensions {
  /** The request chain, in order (src/edge.ts). */
  chain: ChainHandler[];
  /** Routes declared as data (the control routes): matched, listed and documented like the v3 ones. */
  routes: RouteSpec[];
  /** Handlers for /_emulator/* (control routes, webhook deliveries): first answer wins. */
  emulator: ExtraRoute[];
  /** Handlers for /api/* (legacy v1/v2). */
  legacy: ExtraRoute[];
  /** Handlers for anything else outside /v3 and /mcp (file downloads, share pages). */
  other: ExtraRoute[];
}

export const emptyExtensions = (): AppExtensions => ({ chain: [], routes: [], emulator: [], legacy: [], other: [] });

const CONTROL = /^\/_emulator/;
// Legacy paths match case-insensitively, their /api prefix too (docs/legacy.md).
const LEGACY = /^\/api\//i;
/** What no family above claims: file downloads, the console's pages. */
const OTHER = /^(?!\/v3(\/|$)|\/mcp\/?$|\/_emulator|\/[aA][pP][iI]\/)/;

/**
 * The address's one route table: v3 operations and the OpenAPI document, MCP, the
 * routes extensions declare, then the prefixes extensions answer under themselves.
 */
export function buildRouteTable(emu: Emulator, ext: AppExtensions): RouteTable {
  const table = new RouteTable();
  let openapi: string | undefined;
  table.add({
    method: 'GET',
    path: '/v3/openapi.json',
    family: 'v3',
    handler: (_req, { info }) => {
      openapi ??= JSON.stringify(openApiDocument(emu.ops, emu.baseUrls));
      return new Response(openapi, { status: 200, headers: { 'Content-Type': JSON_TYPE, 'X-Request-Id': info.requestId } });
    },
  });
  for (const op of emu.ops) table.add({ method: op.method, path: op.path, family: 'v3', op, handler: restHandler(op) });
  // The MCP SDK is loaded by the first /mcp request, not at start-up (measured: ~10% of start-up CPU).
  table.add({
    method: '*',
    path: '/mcp',
    regex: /^\/mcp\/?$/,
    family: 'mcp',
    handler: async (req, { emu: e, info }) => (await import('../mcp/http')).handleMcpHttp(e, req, { ...info, transport: 'mcp' }),
  });
  for (const r of ext.routes) table.add(r);
  const prefix = (list: ExtraRoute[], regex: RegExp, family: RouteFamily, path: string) => {
    for (const r of list) table.add({ method: '*', path, regex, family, handler: (req, { info, emu: e }) => r(req, info, e) });
  };
  prefix(ext.emulator, CONTROL, 'control', '/_emulator/*');
  prefix(ext.legacy, LEGACY, 'legacy', '/api/*');
  prefix(ext.other, OTHER, 'console', '/*');
  return table;
}

/** 405 when a declared route of the path's family takes another method; otherwise 404. */
function unrouted(table: RouteTable, method: string, path: string): ApiError {
  for (const family of ['v3', 'control'] as const) {
    const allowed = table.allowed(path, family);
    if (allowed.length === 0) continue;
    const shown = family === 'control' ? path.replace(/\/+$/, '') : path;
    return new ApiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${shown}. Allowed: ${allowed.join(', ')}.`, {}, { Allow: allowed.join(', ') });
  }
  return new ApiError(404, 'NOT_FOUND', `No route matches ${method} ${path}.`);
}

export function createFetch(emu: Emulator, region: Region, ext: AppExtensions = emptyExtensions(), table = buildRouteTable(emu, ext)) {
  const handle = async (req: Request, sourceIp: string, journal?: JournalMark, raw?: IncomingHttpHeaders): Promise<Response> => {
    const url = new URL(req.url);
    const info = callInfoFrom(raw ? (name) => headerValue(raw, name) : (name) => req.headers.get(name), region, sourceIp, url.pathname + url.search, journal);
    const path = url.pathname;
    try {
      for (const handler of ext.chain) {
        const answer = handler.handle && (await handler.handle(req, { emu, info, path }));
        if (answer) return answer;
      }
      for (const { route, params } of table.matches(req.method, path)) {
        const res = await route.handler(req, { emu, info, params });
        // A control write (reset, import, a member's default view...) may change any workspace's data.
        if (res && route.family === 'control' && req.method !== 'GET' && req.method !== 'HEAD' && res.ok) emu.changes.everything();
        if (res) return res;
      }
      throw unrouted(table, req.method, path);
    } catch (e) {
      return errorResponse(e, info.requestId, {}, emu.log);
    }
  };
  return withJournal(emu, region, handle);
}

export { json };
