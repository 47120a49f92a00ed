// The web console's own routes (issue 17), an `other` extension: /app/... pages (one HTML
// shell; the client routes by path), its script and style, the console's uncharged
// route family /app/_/v3 (api.ts), and the change feeds (live.ts). The pages read and
// write through /app/_/v3 with the key the user picked, and the panel through /_emulator.
import type { Emulator } from '../emulator';
import type { ExtraRoute } from '../transports/http/app';
import { ApiError } from '../errors';
import { adminGate } from '../control/gate';
import { errorResponse, json } from '../transports/web/respond';
import { clientBundle } from './bundle';
import { liveStream, pageState, panelState } from './live';
import { defaultKey } from './keys';
import { API_PREFIX, consoleApi, feedTicket, requireSession } from './api';
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

const methodNotAllowed = (method: string, path: string, allowed: string) =>
  new ApiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}. Allowed: ${allowed}.`, {}, { Allow: allowed });

/** The panel's feed and sign-in: the admin gate, or (for EventSource, which sends no Authorization) the sign-in cookie. */
function panelGate(emu: Emulator, sessions: ConsoleSessions, req: Request): void {
  if (!emu.options.noAdmin && emu.options.adminToken && sessions.admins.get(cookie(req, ADMIN_COOKIE))) return;
  adminGate(emu, req);
}

export function consoleRoutes(emu0: Emulator): ExtraRoute {
  const bundle = clientBundle();
  const feeds = new Set<() => void>();
  const sessions = new ConsoleSessions();
  const api = consoleApi(emu0);
  emu0.closers.push(() => {
    for (const stop of [...feeds]) stop();
  });
  return async (req, info, emu) => {
    const url = new URL(req.url);
    const path = url.pathname;
    if (path !== '/app' && !path.startsWith('/app/')) return undefined;
    const headers = { ...SECURITY, 'X-Request-Id': info.requestId };
    const method = req.method;
    try {
      if (path.startsWith(`${API_PREFIX}/v3/`)) {
        requireSession(sessions, req);
        return await api(req, info, emu);
      }
      if (path === `${API_PREFIX}/feeds`) {
        if (method !== 'POST') throw methodNotAllowed(method, path, 'POST');
        const browser = requireSession(sessions, req);
        return json(200, feedTicket(emu, sessions, browser, info), { 'X-Request-Id': info.requestId, 'Cache-Control': 'no-store' });
      }
      if (path === `${API_PREFIX}/sign-in`) {
        if (method === 'DELETE') {
          sessions.admins.delete(cookie(req, ADMIN_COOKIE));
          return new Response(null, { status: 204, headers: { 'X-Request-Id': info.requestId, 'Set-Cookie': setCookie(ADMIN_COOKIE, '', 0) } });
        }
        if (method !== 'POST') throw methodNotAllowed(method, path, 'POST, DELETE');
        adminGate(emu, req); // the token, as every control route takes it
        const id = sessions.admins.add(true);
        return new Response(null, { status: 204, headers: { 'X-Request-Id': info.requestId, 'Set-Cookie': setCookie(ADMIN_COOKIE, id) } });
      }
      if (method !== 'GET' && method !== 'HEAD') throw methodNotAllowed(method, path, 'GET');
      const asset = /^\/app\/_\/app\.([0-9a-f]{12})\.(js|css)$/.exec(path);
      if (asset) {
        const b = await bundle();
        // A stale hash (the page of an older build) still gets today's file, never cached.
        const cache = asset[1] === b.version ? 'public, max-age=31536000, immutable' : 'no-store';
        const [body, type] = asset[2] === 'js' ? [b.js, 'text/javascript; charset=utf-8'] : [b.css, 'text/css; charset=utf-8'];
        return new Response(body, { status: 200, headers: { ...headers, 'Content-Type': type, 'Cache-Control': cache } });
      }
      if (path === `${API_PREFIX}/live`) {
        requireSession(sessions, req);
        const workspace = sessions.feeds.get(url.searchParams.get('feed') ?? undefined);
        if (workspace === undefined) throw new ApiError(404, 'NOT_FOUND', 'No such feed: ask POST /app/_/feeds for one with the key the page acts with.');
        return liveStream(emu, req, headers, feeds, () => pageState(emu, workspace));
      }
      if (path === `${API_PREFIX}/live/panel`) {
        panelGate(emu, sessions, req);
        return liveStream(emu, req, headers, feeds, () => panelState(emu));
      }
      if (path.startsWith(`${API_PREFIX}/`)) return undefined; // 404 NOT_FOUND from the app
      const b = await bundle();
      const page: Record<string, string> = { ...headers, 'Content-Type': HTML_TYPE, 'Cache-Control': 'no-store' };
      const browser = sessions.browsers.get(cookie(req, CONSOLE_COOKIE));
      if (!browser) page['Set-Cookie'] = setCookie(CONSOLE_COOKIE, sessions.browsers.add({}));
      const first = method === 'GET' ? await preload(api, emu, url.origin, info, browser?.key, path, url.searchParams) : undefined;
      return new Response(shell(consoleConfig(emu, info.region), b.version, first), { status: 200, headers: page });
    } catch (e) {
      return errorResponse(e, info.requestId, path.startsWith(`${API_PREFIX}/v3/`) ? {} : SECURITY, emu.log);
    }
  };
}
