// The web console's own routes (issue 17), entries of the address's one route table:
// /app/... pages (one HTML shell; the client routes by path), its script and style, the
// console's uncharged route family /app/_/v3 (api.ts), and the change feeds (live.ts). The pages read and
// write through /app/_/v3 with the key the user picked, and the panel through /_emulator.
import type { Emulator } from '../emulator';
import type { CallInfo } from '../pipeline';
import type { MethodRefusal, RouteHandler, RouteSpec } from '../transports/http/route-table';
import { ApiError } from '../errors';
import { adminGate } from '../control/gate';
import { errorResponse, json } from '../transports/web/respond';
import { clientBundle } from './bundle';
import { chooseEncoding } from './compress';
import { liveStream, pageState, panelState } from './live';
import { defaultKey } from './keys';
import { API_PREFIX, consoleApiFetch, consoleApiRoutes, feedTicket, requireSession } from './api';
import { preload, type Preload } from './preload';
import { ADMIN_COOKIE, CONSOLE_COOKIE, ConsoleSessions, cookie, setCookie } from './sessions';

const HTML_TYPE = 'text/html; charset=utf-8';

/** What the client needs before its first request: where it is and how /_emulator is guarded. */
export function consoleConfig(emu: Emulator, region: 'US' | 'EU') {
  const admin = emu.options.noAdmin ? 'off' : emu.options.adminToken ? 'token' : 'open';
  return {
    region,
    baseUrls: emu.baseUrls,
    admin,
    fixture: emu.fixtureName,
    // Saves a first visit the round trip to the key list. Only where that list is open to anyone.
    defaultKey: admin === 'open' ? defaultKey(emu.fixture, region, emu.clock.now()) : undefined,
  };
}

/** JSON inside <script type="application/json">: `<` escaped so no value can close the tag. */
const scriptJson = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');

export function shell(config: unknown, version: string, first?: Preload): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Workflow Emulator console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/app/_/app.${version}.css">
<script id="wfe-config" type="application/json">${scriptJson(config)}</script>${first ? `\n<script id="wfe-preload" type="application/json">${scriptJson(first)}</script>` : ''}
<script type="module" src="/app/_/app.${version}.js"></script>
</head>
<body>
<div id="root"><p class="loading">Loading the console…</p></div>
<noscript><p>The console needs JavaScript; the API itself is at /v3.</p></noscript>
</body>
</html>
`;
}

const SECURITY = {
  'X-Content-Type-Options': 'nosniff',
  // Nothing but our own script and style; no inline script runs (the config is inert JSON).
  'Content-Security-Policy': "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
};

/** The console's 405, with its page headers. */
const refuseMethod: MethodRefusal = (method, path, allowed, info) =>
  errorResponse(new ApiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}. Allowed: ${allowed.join(', ')}.`, {}, { Allow: allowed.join(', ') }), info.requestId, SECURITY);

/** The panel's feed and sign-in: the admin gate, or (for EventSource, which sends no Authorization) the sign-in cookie. */
function panelGate(emu: Emulator, sessions: ConsoleSessions, req: Request): void {
  if (!emu.options.noAdmin && emu.options.adminToken && sessions.admins.get(cookie(req, ADMIN_COOKIE))) return;
  adminGate(emu, req);
}

/** The page routes' refusals carry the page headers. */
function paged(handler: RouteHandler): RouteHandler {
  return async (req, call) => {
    try {
      return await handler(req, call);
    } catch (e) {
      return errorResponse(e, call.info.requestId, SECURITY, call.emu.log);
    }
  };
}

/** Every /app path but the two exact POST routes: GET answers a page (or 404 under /app/_/), any other method 405 "Allowed: GET". */
const PAGES = /^\/app(?:\/(?!_\/(?:feeds|sign-in)$).*)?$/;

/** The console's routes, as entries of the address's one route table. */
export function consoleRoutes(emu0: Emulator): RouteSpec[] {
  const bundle = clientBundle();
  const feeds = new Set<() => void>();
  const sessions = new ConsoleSessions();
  emu0.closers.push(() => {
    for (const stop of [...feeds]) stop();
  });
  const page = (r: Omit<RouteSpec, 'family' | 'refuseMethod' | 'exact' | 'handler'> & { handler: RouteHandler }): RouteSpec => ({ ...r, family: 'console', exact: true, refuseMethod, handler: paged(r.handler) });
  const headersOf = (info: CallInfo) => ({ ...SECURITY, 'X-Request-Id': info.requestId });
  return [
    ...consoleApiRoutes(emu0, sessions),
    page({
      method: 'POST',
      path: `${API_PREFIX}/feeds`,
      handler: (req, { emu, info }) => {
        const browser = requireSession(sessions, req);
        return json(200, feedTicket(emu, sessions, browser, info), { 'X-Request-Id': info.requestId, 'Cache-Control': 'no-store' });
      },
    }),
    page({
      method: 'POST',
      path: `${API_PREFIX}/sign-in`,
      handler: (req, { emu, info }) => {
        adminGate(emu, req); // the token, as every control route takes it
        const id = sessions.admins.add(true);
        return new Response(null, { status: 204, headers: { 'X-Request-Id': info.requestId, 'Set-Cookie': setCookie(ADMIN_COOKIE, id) } });
      },
    }),
    page({
      method: 'DELETE',
      path: `${API_PREFIX}/sign-in`,
      handler: (req, { info }) => {
        sessions.admins.delete(cookie(req, ADMIN_COOKIE));
        return new Response(null, { status: 204, headers: { 'X-Request-Id': info.requestId, 'Set-Cookie': setCookie(ADMIN_COOKIE, '', 0) } });
      },
    }),
    page({
      method: 'GET',
      head: true,
      path: `${API_PREFIX}/app.:hash.:ext`,
      regex: /^\/app\/_\/app\.(?<hash>[0-9a-f]{12})\.(?<ext>js|css)$/,
      handler: async (req, { info, params }) => {
        const b = await bundle();
        // A stale hash (the page of an older build) still gets today's file, never cached.
        const current = params.hash === b.version;
        const cache = current ? 'public, max-age=31536000, immutable' : 'no-store';
        const [file, type] = params.ext === 'js' ? [b.files.js, 'text/javascript; charset=utf-8'] : [b.files.css, 'text/css; charset=utf-8'];
        // Compressed as the browser accepts (compress.ts), each encoding made once per hash.
        const encoding = chooseEncoding(req.headers.get('accept-encoding'));
        const etag = `"${b.version}-${params.ext}-${encoding}"`;
        const headers: Record<string, string> = { ...headersOf(info), 'Content-Type': type, 'Cache-Control': cache, Vary: 'Accept-Encoding' };
        if (current) headers.ETag = etag;
        if (current && req.headers.get('if-none-match')?.split(/\s*,\s*/).includes(etag)) return new Response(null, { status: 304, headers });
        const body = file.bytes(encoding);
        if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
        headers['Content-Length'] = String(body.byteLength);
        return new Response(req.method === 'HEAD' ? null : body, { status: 200, headers });
      },
    }),
    page({
      method: 'GET',
      head: true,
      path: `${API_PREFIX}/live`,
      handler: (req, { emu, info }) => {
        requireSession(sessions, req);
        const workspace = sessions.feeds.get(new URL(req.url).searchParams.get('feed') ?? undefined);
        if (workspace === undefined) throw new ApiError(404, 'NOT_FOUND', 'No such feed: ask POST /app/_/feeds for one with the key the page acts with.');
        return liveStream(emu, req, headersOf(info), feeds, () => pageState(emu, workspace));
      },
    }),
    page({
      method: 'GET',
      head: true,
      path: `${API_PREFIX}/live/panel`,
      handler: (req, { emu, info }) => {
        panelGate(emu, sessions, req);
        return liveStream(emu, req, headersOf(info), feeds, () => panelState(emu));
      },
    }),
    page({
      method: 'GET',
      head: true,
      path: '/app/*',
      regex: PAGES,
      handler: async (req, { emu, info, table }) => {
        const url = new URL(req.url);
        const path = url.pathname;
        if (path.startsWith(`${API_PREFIX}/`)) return undefined; // 404 NOT_FOUND from the table
        const b = await bundle();
        const headers: Record<string, string> = { ...headersOf(info), 'Content-Type': HTML_TYPE, 'Cache-Control': 'no-store' };
        const browser = sessions.browsers.get(cookie(req, CONSOLE_COOKIE));
        if (!browser) headers['Set-Cookie'] = setCookie(CONSOLE_COOKIE, sessions.browsers.add({}));
        const first = req.method === 'GET' ? await preload(consoleApiFetch(table), emu, url.origin, info, browser?.key, path, url.searchParams) : undefined;
        return new Response(shell(consoleConfig(emu, info.region), b.version, first), { status: 200, headers });
      },
    }),
  ];
}
