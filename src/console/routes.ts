// The web console's own routes (issue 17), an `other` extension: /app/... pages (one HTML
// shell; the client routes by path), its script and style, and /app/_/live, the change
// feed pages re-read on. Everything the pages show comes from /v3 (with the key the user
// picked) and /_emulator (the panel), as any client would read it.
import type { Emulator } from '../emulator';
import type { ExtraRoute } from '../transports/http/app';
import { clientBundle } from './bundle';
import { liveStream } from './live';
import { defaultKey } from './keys';

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

export function shell(config: unknown, version: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Workflow Emulator console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/app/_/app.${version}.css">
<script id="wfe-config" type="application/json">${scriptJson(config)}</script>
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

export function consoleRoutes(emu0: Emulator): ExtraRoute {
  const bundle = clientBundle();
  const feeds = new Set<() => void>();
  emu0.closers.push(() => {
    for (const stop of [...feeds]) stop();
  });
  return async (req, info, emu) => {
    const url = new URL(req.url);
    const path = url.pathname;
    if (path !== '/app' && !path.startsWith('/app/')) return undefined;
    const headers = { ...SECURITY, 'X-Request-Id': info.requestId };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return new Response(JSON.stringify({ error: { code: 'METHOD_NOT_ALLOWED', message: `${req.method} is not allowed on ${path}. Allowed: GET.`, requestId: info.requestId } }), {
        status: 405,
        headers: { ...headers, Allow: 'GET', 'Content-Type': 'application/json; charset=utf-8' },
      });
    }
    const asset = /^\/app\/_\/app\.([0-9a-f]{12})\.(js|css)$/.exec(path);
    if (asset) {
      const b = await bundle();
      // A stale hash (the page of an older build) still gets today's file, never cached.
      const cache = asset[1] === b.version ? 'public, max-age=31536000, immutable' : 'no-store';
      const [body, type] = asset[2] === 'js' ? [b.js, 'text/javascript; charset=utf-8'] : [b.css, 'text/css; charset=utf-8'];
      return new Response(body, { status: 200, headers: { ...headers, 'Content-Type': type, 'Cache-Control': cache } });
    }
    if (path === '/app/_/live') return liveStream(emu, req, headers, feeds);
    if (path.startsWith('/app/_/')) return undefined; // 404 NOT_FOUND from the app
    const b = await bundle();
    return new Response(shell(consoleConfig(emu, info.region), b.version), { status: 200, headers: { ...headers, 'Content-Type': HTML_TYPE, 'Cache-Control': 'no-store' } });
  };
}
