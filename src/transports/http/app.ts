import type { IncomingHttpHeaders } from 'node:http';
// The fetch-shaped core of one regional address: every route family, matched by the one
// route table (route-table.ts). The node:http adapter lives in server.ts.
import { ApiError } from '../../errors';
import type { Emulator } from '../../emulator';
import type { Region } from '../../context';
import type { CallInfo } from '../../pipeline';
import { restHandler } from './rest';
import { errorResponse, json, JSON_TYPE } from '../web/respond';
import { callInfoFrom, headerValue } from './call-info';
import { RouteTable, type RouteSpec } from './route-table';
import type { EdgeFacts, EdgePolicy } from './origin';
import { openApiText } from '../../openapi';
import { prebuiltOpenApiPaths } from '../../prebuilt';
import { withJournal, type JournalMark } from '../../platform/journal';

/**
 * A handler of the request chain: what crosses every request (the Host and Origin check,
 * faults, the admin gate), run in order before routing, registered in one place
 * (src/request-chain.ts). No transport imports one.
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

/** What areas other than the v3 operations add to an address. */
export interface AppExtensions {
  /** The request chain, in order (src/request-chain.ts). */
  chain: ChainHandler[];
  /**
   * Every other family's routes, declared as data: control routes, the legacy API, the
   * console's pages and API family, file downloads. Matched, listed and refused (404/405)
   * by the one table like the v3 ones.
   */
  routes: RouteSpec[];
}

export const emptyExtensions = (): AppExtensions => ({ chain: [], routes: [] });

/**
 * The address's one route table: v3 operations and the OpenAPI document, MCP, then the
 * routes extensions declare; the legacy API's most literal first (docs/legacy.md).
 */
export function buildRouteTable(emu: Emulator, ext: AppExtensions): RouteTable {
  const table = new RouteTable();
  // Kept as bytes: a 3.3 MB string was encoded again for every answer (measured: the first
  // answer's RSS peak 97 -> 92 MB, and no growth on the next ones).
  let openapi: Buffer<ArrayBuffer> | undefined;
  table.add({
    method: 'GET',
    path: '/v3/openapi.json',
    family: 'v3',
    handler: (_req, { info }) => {
      openapi ??= Buffer.from(openApiText(emu.ops, emu.baseUrls, prebuiltOpenApiPaths(emu.ops)));
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
  for (const r of ext.routes) if (r.family !== 'legacy') table.add(r);
  table.addRanked(ext.routes.filter((r) => r.family === 'legacy'));
  return table;
}

/** No route answered: 405 in the shape of the path's family when it takes other methods there; otherwise 404. */
function unrouted(table: RouteTable, method: string, path: string, info: CallInfo): Response {
  const u = table.unrouted(method, path);
  if (!u) throw new ApiError(404, 'NOT_FOUND', `No route matches ${method} ${path}.`);
  if (u.route.refuseMethod) return u.route.refuseMethod(method, path, u.allowed, info);
  const shown = u.route.family === 'control' ? path.replace(/\/+$/, '') : path;
  throw new ApiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${shown}. Allowed: ${u.allowed.join(', ')}.`, {}, { Allow: u.allowed.join(', ') });
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
        const res = await route.handler(req, { emu, info, params, table });
        // A control write (reset, import, a member's default view...) may change any workspace's data.
        if (res && route.family === 'control' && req.method !== 'GET' && req.method !== 'HEAD' && res.ok) emu.changes.everything();
        if (res) return res;
      }
      return unrouted(table, req.method, path, info);
    } catch (e) {
      return errorResponse(e, info.requestId, {}, emu.log);
    }
  };
  return withJournal(emu, region, handle);
}

export { json };
