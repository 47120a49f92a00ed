// The console's own route family: /app/_/v3/... runs the v3 operation of the same path
// (same handlers, input, refusals and contract, with the key the page acts with), charged
// to no rate budget, as the service's web app spends none. Only a browser holding a
// console session (the cookie every page shell sets) gets in; /v3 stays charged for every
// caller and no header changes that. Its requests are journaled as console traffic
// (platform/journal.ts), hidden from GET /_emulator/journal unless asked for.
// Its routes are entries of the address's one route table (family 'console-api').
import { ApiError } from '../errors';
import type { Emulator } from '../emulator';
import { authenticate, CONSOLE_RULES, type CallInfo } from '../pipeline';
import { restHandler } from '../transports/http/rest';
import type { RouteHandler, RouteSpec, RouteTable } from '../transports/http/route-table';
import { CONSOLE_COOKIE, cookie, type BrowserSession, type ConsoleSessions } from './sessions';

export const API_PREFIX = '/app/_';

/** Refused when the browser has no console session (a restart forgets them: the page loads a shell and tries again). */
export function requireSession(sessions: ConsoleSessions, req: Request): BrowserSession {
  const session = sessions.browsers.get(cookie(req, CONSOLE_COOKIE));
  if (session) return session;
  throw new ApiError(401, 'CONSOLE_SESSION_REQUIRED', 'The /app/_ routes serve the web console in a browser that loaded one of its pages; API clients call /v3.');
}

/** The v3 route's handler, run on the v3 path of an /app/_/v3 request. */
function underPrefix(rest: RouteHandler): RouteHandler {
  return (req, call) => {
    const url = new URL(req.url);
    const v3Path = url.pathname.slice(API_PREFIX.length);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const inner = new Request(url.origin + v3Path + url.search, {
      method: req.method,
      headers: req.headers,
      body: hasBody ? req.body : undefined,
      ...(hasBody ? { duplex: 'half' } : {}),
    } as RequestInit);
    // WRONG_REGION's `url` names the API route, as /v3 would.
    return rest(inner, { ...call, info: { ...call.info, pathAndQuery: v3Path + url.search } });
  };
}

/** No operation of the path took the method: 405 or 404, naming the v3 path as /v3 would. */
function unrouted(table: RouteTable, method: string, path: string): ApiError {
  const v3Path = path.slice(API_PREFIX.length);
  const allowed = table.allowed(path, 'console-api');
  if (allowed.length > 0) return new ApiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${v3Path}. Allowed: ${allowed.join(', ')}.`, {}, { Allow: allowed.join(', ') });
  return new ApiError(404, 'NOT_FOUND', `No route matches ${method} ${v3Path}.`);
}

const UNDER_API = /^\/app\/_\/v3\//;

/**
 * The family's entries, in table order: the session check (before any matching, so an
 * unknown path is 401 too), the v3 operations under the prefix with the console's rules,
 * then the family's own 404/405.
 */
export function consoleApiRoutes(emu0: Emulator, sessions: ConsoleSessions): RouteSpec[] {
  return [
    {
      method: '*',
      path: `${API_PREFIX}/v3/*`,
      regex: UNDER_API,
      family: 'console-api',
      handler: (req) => void requireSession(sessions, req),
    },
    ...emu0.ops.map((op): RouteSpec => ({ method: op.method, path: API_PREFIX + op.path, family: 'console-api', handler: underPrefix(restHandler(op, CONSOLE_RULES)) })),
    {
      method: '*',
      path: `${API_PREFIX}/v3/*`,
      regex: UNDER_API,
      family: 'console-api',
      handler: (req, { table }) => {
        throw unrouted(table, req.method, new URL(req.url).pathname);
      },
    },
  ];
}

/** The family's operations called in-process, without the session check (the page shell's first reads, preload.ts). */
export function consoleApiFetch(table: RouteTable) {
  return async (req: Request, info: CallInfo, emu: Emulator): Promise<Response | undefined> => {
    const path = new URL(req.url).pathname;
    for (const { route, params } of table.matches(req.method, path)) {
      if (route.family !== 'console-api' || route.method === '*') continue;
      const res = await route.handler(req, { emu, info, params, table });
      if (res) return res;
    }
    throw unrouted(table, req.method, path);
  };
}

/**
 * POST /app/_/feeds: a ticket for the page feed of the key's workspace (refusals as /v3 gives
 * them). The browser's session remembers the key, so its next page shell can carry that
 * page's first data (preload.ts).
 */
export function feedTicket(emu: Emulator, sessions: ConsoleSessions, browser: BrowserSession, info: CallInfo): { feed: string } {
  const principal = authenticate(emu, info, CONSOLE_RULES);
  browser.key = info.apiKey ?? undefined;
  return { feed: sessions.feeds.add(principal.workspace.id) };
}
