// The console's own route family: /app/_/v3/... runs the v3 operation of the same path
// (same handlers, input, refusals and contract, with the key the page acts with), charged
// to no rate budget, as the service's web app spends none. Only a browser holding a
// console session (the cookie every page shell sets) gets in; /v3 stays charged for every
// caller and no header changes that. Its requests are journaled as console traffic
// (platform/journal.ts), hidden from GET /_emulator/journal unless asked for.
import { ApiError } from '../errors';
import type { Emulator } from '../emulator';
import { authenticate, CONSOLE_RULES, type CallInfo } from '../pipeline';
import { restHandler } from '../transports/http/rest';
import { RouteTable } from '../transports/http/route-table';
import { CONSOLE_COOKIE, cookie, type BrowserSession, type ConsoleSessions } from './sessions';

export const API_PREFIX = '/app/_';

/** Refused when the browser has no console session (a restart forgets them: the page loads a shell and tries again). */
export function requireSession(sessions: ConsoleSessions, req: Request): BrowserSession {
  const session = sessions.browsers.get(cookie(req, CONSOLE_COOKIE));
  if (session) return session;
  throw new ApiError(401, 'CONSOLE_SESSION_REQUIRED', 'The /app/_ routes serve the web console in a browser that loaded one of its pages; API clients call /v3.');
}

export function consoleApi(emu0: Emulator) {
  // The v3 routes again, in a table of their own: the same patterns, run with the console's rules.
  const table = new RouteTable();
  for (const op of emu0.ops) table.add({ method: op.method, path: op.path, family: 'v3', op, handler: restHandler(op, CONSOLE_RULES) });
  return async (req: Request, info: CallInfo, emu: Emulator): Promise<Response | undefined> => {
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
    const call = { emu, info: { ...info, pathAndQuery: v3Path + url.search } };
    for (const { route, params } of table.matches(inner.method, new URL(inner.url).pathname)) {
      const res = await route.handler(inner, { ...call, params });
      if (res) return res;
    }
    const allowed = table.allowed(v3Path, 'v3');
    if (allowed.length > 0) throw new ApiError(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${v3Path}. Allowed: ${allowed.join(', ')}.`, {}, { Allow: allowed.join(', ') });
    throw new ApiError(404, 'NOT_FOUND', `No route matches ${req.method} ${v3Path}.`);
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
