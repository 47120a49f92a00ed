// OAuth sign-in on /mcp: every refusal (issue 38 "Bad input"; docs/oauth.md "Refusals"). The
// OAuth routes answer in the RFCs' own body ({"error", "error_description"}); /mcp keeps the
// spec's 401 body and code (spec v3 7) and adds the WWW-Authenticate challenge.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { REDIRECT, authorizeUrl, browserSignIn, mcpPost, openSignIn, pkce, postForm, register, signInRaw, submitSignIn, choice } from './helpers/oauth';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

const oauthError = (r: { status: number; body: any; text?: string }, status: number, error: string) => {
  assert.equal(r.status, status, r.text ?? JSON.stringify(r.body));
  assert.equal(r.body.error, error, JSON.stringify(r.body));
  assert.equal(typeof r.body.error_description, 'string');
};

const publicClient = async (base = s.us, extra: Record<string, unknown> = {}) => {
  const r = await register(base, { client_name: 'refusal test', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', ...extra });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.client_id as string;
};

/** A code for a public client, signed in as `as`; with its verifier. */
async function codeFor(base = s.us, as = 'Ada Admin', clientId?: string) {
  const id = clientId ?? (await publicClient(base));
  const { verifier, challenge } = pkce();
  const back = await browserSignIn(authorizeUrl(base, id, challenge), as);
  return { clientId: id, verifier, code: back.get('code')! };
}

const exchange = (base: string, c: { clientId: string; verifier: string; code: string }, extra: Record<string, string> = {}) =>
  postForm(`${base}/oauth/token`, { grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, redirect_uri: REDIRECT, client_id: c.clientId, ...extra });

// ── /mcp: the challenge, the spec's bodies ─────────────────────────────────────────────

test('OAuth /mcp (spec v3 7, 5.1): a 401 keeps its body and code and adds WWW-Authenticate: Bearer resource_metadata', async () => {
  for (const [headers, code] of [
    [{}, 'MISSING_API_KEY'],
    [{ 'X-API-KEY': KEYS.revoked }, 'API_KEY_REVOKED'],
    [{ 'X-API-KEY': KEYS.expired }, 'API_KEY_EXPIRED'],
    [{ 'X-API-KEY': 'no-such-key-at-all' }, 'INVALID_API_KEY'],
    [{ 'X-API-KEY': KEYS.unavailable }, 'API_KEY_ACTOR_UNAVAILABLE'],
  ] as const) {
    for (const base of [s.us, s.eu]) {
      const r = await mcpPost(base, headers);
      assert.equal(r.status, 401);
      assert.equal(r.body.error.code, code);
      assert.equal(typeof r.body.error.requestId, 'string');
      // A key (or nothing) was sent: no error parameter (RFC 6750 3.1), only where to sign in.
      assert.equal(r.headers.get('www-authenticate'), `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource"`);
    }
  }
});

test('OAuth /mcp: X-API-KEY clients see no other change; a key sent beside a token wins', async () => {
  const r = await mcpPost(s.us, { 'X-API-KEY': KEYS.admin });
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('www-authenticate'), null);
  const t = await s.api(null, 'POST', '/_emulator/oauth/tokens', { workspace: DEMO.acme, actsAs: { type: 'member', id: DEMO.members.mia } });
  const both = await mcpPost(s.us, { 'X-API-KEY': KEYS.revoked, Authorization: `Bearer ${t.body.accessToken}` });
  assert.equal(both.status, 401);
  assert.equal(both.body.error.code, 'API_KEY_REVOKED');
});

test('OAuth /mcp: an unknown, a made-up or an authorization-code bearer is 401 INVALID_API_KEY with error="invalid_token"', async () => {
  const c = await codeFor();
  for (const token of ['wfe_at_0000', 'x', c.code]) {
    const r = await mcpPost(s.us, { Authorization: `Bearer ${token}` });
    assert.equal(r.status, 401);
    assert.equal(r.body.error.code, 'INVALID_API_KEY');
    assert.equal(r.headers.get('www-authenticate'), `Bearer resource_metadata="${s.us}/.well-known/oauth-protected-resource", error="invalid_token", error_description="INVALID_API_KEY"`);
  }
});

test('OAuth /mcp (spec v3 5.11): a token of the other region is 421 WRONG_REGION with the right address, as a key is', async () => {
  const t = await s.api(null, 'POST', '/_emulator/oauth/tokens', { workspace: DEMO.globex, actsAs: { type: 'member', id: DEMO.members.gina } });
  assert.equal(t.body.region, 'EU');
  const r = await mcpPost(s.us, { Authorization: `Bearer ${t.body.accessToken}` });
  assert.equal(r.status, 421);
  assert.equal(r.body.error.code, 'WRONG_REGION');
  assert.equal(r.body.error.url, `${s.eu}/mcp`);
  const byKey = await mcpPost(s.us, { 'X-API-KEY': KEYS.globexAdmin });
  assert.deepEqual({ ...r.body.error, requestId: '' }, { ...byKey.body.error, requestId: '' });
});

test('OAuth /v3 stays key-only (spec v3 5.1): a bearer token there is MISSING_API_KEY, with no challenge', async () => {
  const t = await s.api(null, 'POST', '/_emulator/oauth/tokens', { workspace: DEMO.acme, actsAs: { type: 'member', id: DEMO.members.ada } });
  const r = await fetch(`${s.us}/v3/auth/test`, { headers: { Authorization: `Bearer ${t.body.accessToken}` } });
  assert.equal(r.status, 401);
  assert.equal(((await r.json()) as any).error.code, 'MISSING_API_KEY');
  assert.equal(r.headers.get('www-authenticate'), null);
});

test('OAuth /mcp: a sign-in through a key that expires afterwards is 401 API_KEY_EXPIRED, the key\'s own refusal (spec v3 5.2, 7)', async () => {
  const made = await s.api(null, 'POST', '/_emulator/keys', { workspace: DEMO.acme, name: 'acts as Alex', actsAs: { type: 'member', id: DEMO.members.alexKim2 } });
  assert.equal(made.status, 201, made.text);
  const { clientId, tokens } = await signInRaw(s.us, { key: made.body.key });
  assert.equal((await mcpPost(s.us, { Authorization: `Bearer ${tokens.access_token}` })).status, 200);
  const today = (await s.api(null, 'GET', '/_emulator/clock')).body.now.slice(0, 10);
  assert.equal((await s.api(null, 'PATCH', `/_emulator/keys/${made.body.apiKey.id}`, { expiresOn: today })).status, 200);
  await s.api(null, 'POST', '/_emulator/clock/advance', { days: 1 });
  // A fresh access token (the old one expired with the day) does not outlive the key it acts through.
  const fresh = await postForm(`${s.us}/oauth/token`, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId });
  assert.equal(fresh.status, 200, fresh.text);
  const r = await mcpPost(s.us, { Authorization: `Bearer ${fresh.body.access_token}` });
  assert.equal(r.status, 401);
  assert.equal(r.body.error.code, 'API_KEY_EXPIRED');
  assert.match(r.body.error.message, /API key expired on/);
});

test('OAuth /mcp: a sign-in as a member who is deactivated afterwards is 401 API_KEY_ACTOR_UNAVAILABLE, as a key is (spec v3 7)', async () => {
  const t = await s.api(null, 'POST', '/_emulator/oauth/tokens', { workspace: DEMO.acme, actsAs: { type: 'member', id: DEMO.members.alexKim1 } });
  assert.equal((await mcpPost(s.us, { Authorization: `Bearer ${t.body.accessToken}` })).status, 200);
  // No route deactivates a member (the app does); the fixture's Dee Departed is one, set here the same way.
  s.emu.db.prepare('UPDATE members SET is_active = 0 WHERE id = ?').run(DEMO.members.alexKim1);
  try {
    const r = await mcpPost(s.us, { Authorization: `Bearer ${t.body.accessToken}` });
    assert.equal(r.status, 401);
    assert.equal(r.body.error.code, 'API_KEY_ACTOR_UNAVAILABLE');
  } finally {
    s.emu.db.prepare('UPDATE members SET is_active = 1 WHERE id = ?').run(DEMO.members.alexKim1);
  }
});

// ── discovery ───────────────────────────────────────────────────────────────────────────

test('OAuth discovery (RFC 9728, RFC 8414): each regional address names its own MCP server and authorization server', async () => {
  for (const base of [s.us, s.eu]) {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const prm = (await (await fetch(base + path)).json()) as any;
      assert.equal(prm.resource, `${base}/mcp`);
      assert.deepEqual(prm.authorization_servers, [base]);
      assert.deepEqual(prm.bearer_methods_supported, ['header']);
    }
    const as = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as any;
    assert.equal(as.issuer, base);
    assert.equal(as.authorization_endpoint, `${base}/oauth/authorize`);
    assert.equal(as.token_endpoint, `${base}/oauth/token`);
    assert.equal(as.registration_endpoint, `${base}/oauth/register`);
    assert.equal(as.revocation_endpoint, `${base}/oauth/revoke`);
    assert.deepEqual(as.code_challenge_methods_supported, ['S256']);
    assert.deepEqual(as.grant_types_supported, ['authorization_code', 'refresh_token']);
    assert.deepEqual(as.response_types_supported, ['code']);
  }
  // Written for the address the client used: localhost stays localhost.
  const local = s.us.replace('127.0.0.1', 'localhost');
  const prm = (await (await fetch(`${local}/.well-known/oauth-protected-resource`)).json()) as any;
  assert.equal(prm.resource, `${local}/mcp`);
});

test('OAuth routes: a wrong method is 405 in the RFC body with Allow', async () => {
  const r = await fetch(`${s.us}/oauth/token`);
  assert.equal(r.status, 405);
  assert.equal(r.headers.get('allow'), 'POST');
  assert.equal(((await r.json()) as any).error, 'invalid_request');
});

// ── Host and Origin (docs/security.md): every new route ───────────────────────────────────

test('OAuth routes: the Host and Origin rules apply to every one of them (docs/security.md)', async () => {
  const { request } = await import('node:http');
  const port = new URL(s.us).port;
  const paths: [string, string][] = [
    ['GET', '/.well-known/oauth-protected-resource'],
    ['GET', '/.well-known/oauth-authorization-server'],
    ['POST', '/oauth/register'],
    ['GET', '/oauth/authorize'],
    ['POST', '/oauth/authorize'],
    ['POST', '/oauth/token'],
    ['POST', '/oauth/revoke'],
    ['GET', '/oauth/style.css'],
    ['POST', '/_emulator/oauth/tokens'],
  ];
  const send = (method: string, path: string, headers: Record<string, string>) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.end(method === 'POST' ? 'x=1' : undefined);
    });
  for (const [method, path] of paths) {
    const origin = await send(method, path, { Host: `127.0.0.1:${port}`, Origin: 'http://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' });
    assert.equal(origin.status, 403, `${method} ${path}`);
    assert.equal(JSON.parse(origin.body).error.code, 'ORIGIN_NOT_ALLOWED');
    const host = await send(method, path, { Host: `evil.example:${port}` });
    assert.equal(host.status, 403, `${method} ${path}`);
    assert.equal(JSON.parse(host.body).error.code, 'HOST_NOT_ALLOWED');
  }
});

// ── registration (RFC 7591) ───────────────────────────────────────────────────────────────

test('OAuth registration (RFC 7591 3.2.2): bad metadata is refused with invalid_redirect_uri or invalid_client_metadata', async () => {
  const cases: [unknown, string][] = [
    [{ client_name: 'x' }, 'invalid_redirect_uri'],
    [{ redirect_uris: [] }, 'invalid_redirect_uri'],
    [{ redirect_uris: 'http://127.0.0.1/cb' }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['not a uri'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['http://evil.example/cb'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['http://127.0.0.1/cb#frag'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata'],
    [{ redirect_uris: [REDIRECT], grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
    [{ redirect_uris: [REDIRECT], grant_types: ['refresh_token'] }, 'invalid_client_metadata'],
    [{ redirect_uris: [REDIRECT], response_types: ['token'] }, 'invalid_client_metadata'],
    [{ redirect_uris: [REDIRECT], client_name: 7 }, 'invalid_client_metadata'],
    [[1, 2], 'invalid_client_metadata'],
  ];
  for (const [body, error] of cases) oauthError(await register(s.us, body as Record<string, unknown>), 400, error);
  const notJson = await fetch(`${s.us}/oauth/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{nope' });
  oauthError({ status: notJson.status, body: await notJson.json() }, 400, 'invalid_client_metadata');
  const big = await fetch(`${s.us}/oauth/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'x'.repeat(70_000) }) });
  oauthError({ status: big.status, body: await big.json() }, 413, 'invalid_request');
});

test('OAuth registration (RFC 7591 3.2.1): 201 with a client_id; a secret only for a confidential client, never stored', async () => {
  const pub = await register(s.us, { client_name: 'public', redirect_uris: [REDIRECT, 'https://app.example/cb', 'com.example.app:/oauth'], token_endpoint_auth_method: 'none' });
  assert.equal(pub.status, 201);
  assert.equal(pub.headers.get('cache-control'), 'no-store');
  assert.match(pub.body.client_id, /^wfe-client-[0-9a-f]{32}$/);
  assert.equal(pub.body.client_secret, undefined);
  assert.deepEqual(pub.body.grant_types, ['authorization_code', 'refresh_token']);
  const conf = await register(s.us, { redirect_uris: [REDIRECT] });
  assert.equal(conf.body.token_endpoint_auth_method, 'client_secret_basic', 'the RFC 7591 default');
  assert.match(conf.body.client_secret, /^wfe_cs_/);
  const rows = s.emu.db.prepare('SELECT * FROM oauth_clients').all() as any[];
  assert.ok(!JSON.stringify(rows).includes(conf.body.client_secret), 'only the digest is kept');
});

// ── authorization endpoint ───────────────────────────────────────────────────────────────

test('OAuth authorize (RFC 6749 4.1.2.1): an unknown client, a client of the other region, an unregistered redirect URI are shown, never redirected', async () => {
  const id = await publicClient();
  const euId = await publicClient(s.eu);
  const { challenge } = pkce();
  const cases: [string, string][] = [
    [authorizeUrl(s.us, 'wfe-client-unknown', challenge), 'invalid_client'],
    [authorizeUrl(s.us, euId, challenge), 'invalid_client'],
    [authorizeUrl(s.us, id, challenge, { redirect_uri: 'http://127.0.0.1:49152/elsewhere' }), 'invalid_request'],
    [authorizeUrl(s.us, id, challenge, { redirect_uri: 'http://localhost:49152/callback' }), 'invalid_request'],
    [authorizeUrl(s.us, id, challenge, { redirect_uri: 'https://evil.example/callback' }), 'invalid_request'],
    [`${s.us}/oauth/authorize?response_type=code`, 'invalid_request'],
    [`${s.us}/oauth/authorize?client_id=a&client_id=b`, 'invalid_request'],
  ];
  for (const [url, error] of cases) {
    const r = await fetch(url, { redirect: 'manual' });
    assert.equal(r.headers.get('location'), null, url);
    oauthError({ status: r.status, body: await r.json() }, 400, error);
    // A browser gets a page in the console's look with the same code.
    const page = await fetch(url, { redirect: 'manual', headers: { Accept: 'text/html' } });
    assert.equal(page.status, 400);
    assert.match(page.headers.get('content-type')!, /^text\/html/);
    assert.match(await page.text(), new RegExp(`<strong>${error}</strong>`));
  }
});

test('OAuth authorize (RFC 8252 7.3): a loopback redirect URI may come back on another port, nothing else may differ', async () => {
  const id = await publicClient();
  const { challenge } = pkce();
  const page = await openSignIn(authorizeUrl(s.us, id, challenge, { redirect_uri: 'http://127.0.0.1:61000/callback' }));
  assert.equal(page.status, 200);
  const res = await submitSignIn(s.us, page, { actor: choice(page, 'Ada Admin'), decision: 'allow' });
  assert.equal(res.status, 303);
  assert.match(res.headers.get('location')!, /^http:\/\/127\.0\.0\.1:61000\/callback\?code=wfe_ac_/);
});

test('OAuth authorize (OAuth 2.1 4.1.1, RFC 7636 4.4.1): a request without PKCE S256, of another response type or for the other region is redirected back with the error and state', async () => {
  const id = await publicClient();
  const { challenge } = pkce();
  const cases: [Record<string, string>, string][] = [
    [{ code_challenge: '' }, 'invalid_request'],
    [{ code_challenge_method: 'plain' }, 'invalid_request'],
    [{ code_challenge_method: '' }, 'invalid_request'],
    [{ code_challenge: 'short' }, 'invalid_request'],
    [{ response_type: 'token' }, 'unsupported_response_type'],
    [{ resource: `${s.eu}/mcp` }, 'invalid_target'],
    [{ resource: 'https://elsewhere.example/mcp' }, 'invalid_target'],
    [{ resource: `${s.us}/v3` }, 'invalid_target'],
  ];
  for (const [extra, error] of cases) {
    const r = await fetch(authorizeUrl(s.us, id, challenge, { state: 'keep-me', ...extra }), { redirect: 'manual' });
    assert.equal(r.status, 303, JSON.stringify(extra));
    const back = new URL(r.headers.get('location')!);
    assert.equal(back.origin + back.pathname, REDIRECT);
    assert.equal(back.searchParams.get('error'), error, JSON.stringify(extra));
    assert.equal(back.searchParams.get('state'), 'keep-me');
    assert.equal(back.searchParams.get('iss'), s.us);
  }
});

test('OAuth sign-in page: Deny sends access_denied; no choice, a Guest, a member of the other region, a bad key are shown on the page again', async () => {
  const id = await publicClient();
  const { challenge } = pkce();
  const url = authorizeUrl(s.us, id, challenge, { state: 's-9' });
  const page = await openSignIn(url);
  const denied = await submitSignIn(url, page, { actor: choice(page, 'Ada Admin'), decision: 'deny' });
  assert.equal(denied.status, 303);
  const back = new URL(denied.headers.get('location')!);
  assert.equal(back.searchParams.get('error'), 'access_denied');
  assert.equal(back.searchParams.get('state'), 's-9');
  const again = async (fields: Record<string, string>, code: string) => {
    const r = await submitSignIn(url, page, fields);
    assert.equal(r.status, 400, JSON.stringify(fields));
    assert.equal(r.headers.get('location'), null);
    const html = await r.text();
    assert.match(html, new RegExp(`<strong>${code}</strong>`), JSON.stringify(fields));
    assert.match(html, /<form method="post" action="\/oauth\/authorize"/, 'the form is there to try again');
  };
  await again({ decision: 'allow' }, 'VALIDATION_ERROR');
  await again({ actor: `member:${DEMO.members.gus}`, decision: 'allow' }, 'VALIDATION_ERROR');
  await again({ actor: `member:${DEMO.members.dee}`, decision: 'allow' }, 'VALIDATION_ERROR');
  await again({ actor: `member:${DEMO.members.gina}`, decision: 'allow' }, 'VALIDATION_ERROR');
  await again({ actor: 'workspace:999999', decision: 'allow' }, 'VALIDATION_ERROR');
  await again({ actor: 'anyone', decision: 'allow' }, 'VALIDATION_ERROR');
  await again({ actor: choice(page, 'Ada Admin'), decision: 'maybe' }, 'VALIDATION_ERROR');
  await again({ actor: 'key', decision: 'allow' }, 'MISSING_API_KEY');
  await again({ actor: 'key', api_key: KEYS.revoked, decision: 'allow' }, 'API_KEY_REVOKED');
  await again({ actor: 'key', api_key: 'made-up-key', decision: 'allow' }, 'INVALID_API_KEY');
  await again({ actor: 'key', api_key: KEYS.globexAdmin, decision: 'allow' }, 'WRONG_REGION');
  // The page escapes what it shows back: a hostile state stays text.
  const odd = await openSignIn(authorizeUrl(s.us, id, challenge, { state: '"><script>alert(1)</script>' }));
  assert.doesNotMatch(odd.html, /<script>/);
  assert.equal(odd.hidden.state, '"><script>alert(1)</script>');
});

test('OAuth sign-in page: it is framed by nobody and runs no script (Content-Security-Policy, X-Frame-Options)', async () => {
  const id = await publicClient();
  const r = await fetch(authorizeUrl(s.us, id, pkce().challenge), { headers: { Accept: 'text/html' } });
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('x-frame-options'), 'DENY');
  assert.match(r.headers.get('content-security-policy')!, /default-src 'none'.*frame-ancestors 'none'/);
  assert.equal(r.headers.get('cache-control'), 'no-store');
  assert.doesNotMatch(await r.text(), /<script/);
});

// ── token endpoint ──────────────────────────────────────────────────────────────────────

test('OAuth token (RFC 7636 4.6): a wrong verifier is invalid_grant, and the code still works once with the right one', async () => {
  const c = await codeFor();
  oauthError(await exchange(s.us, c, { code_verifier: pkce().verifier }), 400, 'invalid_grant');
  oauthError(await exchange(s.us, c, { code_verifier: 'short' }), 400, 'invalid_grant');
  const ok = await exchange(s.us, c);
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.headers.get('cache-control'), 'no-store');
  assert.equal(ok.body.token_type, 'Bearer');
  assert.equal(ok.body.expires_in, 900);
});

test('OAuth token (OAuth 2.1 4.1.3): a code used twice is invalid_grant, and the tokens of its first use are revoked', async () => {
  const c = await codeFor();
  const first = await exchange(s.us, c);
  assert.equal(first.status, 200);
  assert.equal((await mcpPost(s.us, { Authorization: `Bearer ${first.body.access_token}` })).status, 200);
  oauthError(await exchange(s.us, c), 400, 'invalid_grant');
  const after = await mcpPost(s.us, { Authorization: `Bearer ${first.body.access_token}` });
  assert.equal(after.status, 401);
  assert.equal(after.body.error.code, 'API_KEY_REVOKED');
  oauthError(await postForm(`${s.us}/oauth/token`, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token, client_id: c.clientId }), 400, 'invalid_grant');
});

test('OAuth token: a code expires after a minute (emulator clock)', async () => {
  const c = await codeFor();
  await s.api(null, 'POST', '/_emulator/clock/advance', { seconds: 61 });
  oauthError(await exchange(s.us, c), 400, 'invalid_grant');
});

test('OAuth token: the redirect URI and resource must be those of the authorization request', async () => {
  const c = await codeFor();
  oauthError(await exchange(s.us, c, { redirect_uri: 'http://127.0.0.1:49152/other' }), 400, 'invalid_grant');
  oauthError(await exchange(s.us, c, { resource: `${s.eu}/mcp` }), 400, 'invalid_target');
  const noRedirect = await postForm(`${s.us}/oauth/token`, { grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, client_id: c.clientId });
  oauthError(noRedirect, 400, 'invalid_grant');
  assert.equal((await exchange(s.us, c)).status, 200, 'refusals before it did not spend the code');
});

test('OAuth token (RFC 6749 5.2): an unknown client, another client\'s code, a client of the other region are refused', async () => {
  const c = await codeFor();
  oauthError(await exchange(s.us, c, { client_id: 'wfe-client-nobody' }), 401, 'invalid_client');
  const other = await publicClient();
  oauthError(await exchange(s.us, c, { client_id: other }), 400, 'invalid_grant');
  const eu = await publicClient(s.eu);
  oauthError(await exchange(s.us, c, { client_id: eu }), 401, 'invalid_client');
  // The code of a US sign-in at the EU token endpoint, for an EU client: not this server's.
  oauthError(await exchange(s.eu, c, { client_id: eu }), 400, 'invalid_grant');
  const missing = await postForm(`${s.us}/oauth/token`, { grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, redirect_uri: REDIRECT });
  oauthError(missing, 401, 'invalid_client');
});

test('OAuth token (RFC 6749 5.2, 3.1, 3.2): grant type missing or unsupported, parameters sent twice, a body that is not a form', async () => {
  const id = await publicClient();
  oauthError(await postForm(`${s.us}/oauth/token`, { client_id: id }), 400, 'invalid_request');
  oauthError(await postForm(`${s.us}/oauth/token`, { grant_type: 'password', username: 'a', password: 'b', client_id: id }), 400, 'unsupported_grant_type');
  oauthError(await postForm(`${s.us}/oauth/token`, { grant_type: 'client_credentials', client_id: id }), 400, 'unsupported_grant_type');
  oauthError(await postForm(`${s.us}/oauth/token`, { grant_type: 'authorization_code', client_id: id }), 400, 'invalid_request');
  const twice = await fetch(`${s.us}/oauth/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `grant_type=refresh_token&refresh_token=a&refresh_token=b&client_id=${id}` });
  oauthError({ status: twice.status, body: await twice.json() }, 400, 'invalid_request');
  const json = await fetch(`${s.us}/oauth/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ grant_type: 'refresh_token', client_id: id }) });
  oauthError({ status: json.status, body: await json.json() }, 400, 'invalid_request');
});

test('OAuth token (RFC 6749 2.3.1): a confidential client proves its secret, by Basic or in the body; a wrong or missing one is invalid_client', async () => {
  const reg = await register(s.us, { client_name: 'confidential', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_basic' });
  const { client_id: id, client_secret: secret } = reg.body;
  const { verifier, challenge } = pkce();
  const back = await browserSignIn(authorizeUrl(s.us, id, challenge), 'Mia Member');
  const form = { grant_type: 'authorization_code', code: back.get('code')!, code_verifier: verifier, redirect_uri: REDIRECT };
  const basic = (user: string, pass: string) => ({ Authorization: `Basic ${Buffer.from(`${encodeURIComponent(user)}:${encodeURIComponent(pass)}`).toString('base64')}` });
  oauthError(await postForm(`${s.us}/oauth/token`, { ...form, client_id: id }), 401, 'invalid_client');
  const wrong = await postForm(`${s.us}/oauth/token`, form, basic(id, 'wfe_cs_wrong'));
  oauthError(wrong, 401, 'invalid_client');
  assert.match(wrong.headers.get('www-authenticate')!, /^Basic/);
  oauthError(await postForm(`${s.us}/oauth/token`, { ...form, client_secret: secret }, basic(id, secret)), 400, 'invalid_request');
  const ok = await postForm(`${s.us}/oauth/token`, form, basic(id, secret));
  assert.equal(ok.status, 200, ok.text);
  const viaPost = await postForm(`${s.us}/oauth/token`, { grant_type: 'refresh_token', refresh_token: ok.body.refresh_token, client_id: id, client_secret: secret });
  assert.equal(viaPost.status, 200, viaPost.text);
  // A public client sends no secret.
  const pub = await publicClient();
  oauthError(await postForm(`${s.us}/oauth/token`, { grant_type: 'refresh_token', refresh_token: 'x', client_id: pub, client_secret: 'anything' }), 401, 'invalid_client');
});

test('OAuth refresh (OAuth 2.1 4.3.1): the refresh token rotates; an old one presented again ends the sign-in', async () => {
  const { clientId, tokens } = await signInRaw(s.us, 'Omar Owner');
  const next = await postForm(`${s.us}/oauth/token`, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId });
  assert.equal(next.status, 200, next.text);
  assert.notEqual(next.body.refresh_token, tokens.refresh_token);
  assert.equal((await mcpPost(s.us, { Authorization: `Bearer ${next.body.access_token}` })).status, 200);
  // Past the 30 s a client's own race is given (docs/oauth.md "Tokens").
  await s.api(null, 'POST', '/_emulator/clock/advance', { seconds: 31 });
  oauthError(await postForm(`${s.us}/oauth/token`, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId }), 400, 'invalid_grant');
  const ended = await mcpPost(s.us, { Authorization: `Bearer ${next.body.access_token}` });
  assert.equal(ended.body.error.code, 'API_KEY_REVOKED');
  oauthError(await postForm(`${s.us}/oauth/token`, { grant_type: 'refresh_token', refresh_token: next.body.refresh_token, client_id: clientId }), 400, 'invalid_grant');
});

test('OAuth refresh: a rotated refresh token presented again within 30 s (parallel calls that all met the expiry) gets tokens of its own and revokes nothing', async () => {
  const { clientId, tokens } = await signInRaw(s.us, 'Omar Owner');
  const refresh = () => postForm(`${s.us}/oauth/token`, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId });
  const [a, b] = await Promise.all([refresh(), refresh()]);
  assert.equal(a.status, 200, a.text);
  assert.equal(b.status, 200, b.text);
  assert.notEqual(a.body.access_token, b.body.access_token);
  for (const t of [a, b]) assert.equal((await mcpPost(s.us, { Authorization: `Bearer ${t.body.access_token}` })).status, 200);
});

test('OAuth refresh: a refresh token of the other region, an unknown one, an expired one, one of another client are invalid_grant', async () => {
  const us = await s.api(null, 'POST', '/_emulator/oauth/tokens', { workspace: DEMO.acme, actsAs: { type: 'member', id: DEMO.members.ada } });
  const eu = await s.api(null, 'POST', '/_emulator/oauth/tokens', { workspace: DEMO.globex, actsAs: { type: 'workspace' } });
  oauthError(await postForm(`${s.eu}/oauth/token`, { grant_type: 'refresh_token', refresh_token: us.body.refreshToken, client_id: eu.body.clientId }), 400, 'invalid_grant');
  oauthError(await postForm(`${s.eu}/oauth/token`, { grant_type: 'refresh_token', refresh_token: us.body.refreshToken, client_id: us.body.clientId }), 401, 'invalid_client');
  oauthError(await postForm(`${s.us}/oauth/token`, { grant_type: 'refresh_token', refresh_token: 'wfe_rt_nothing', client_id: us.body.clientId }), 400, 'invalid_grant');
  oauthError(await postForm(`${s.us}/oauth/token`, { grant_type: 'refresh_token', refresh_token: us.body.accessToken, client_id: us.body.clientId }), 400, 'invalid_grant');
  const other = await publicClient();
  oauthError(await postForm(`${s.us}/oauth/token`, { grant_type: 'refresh_token', refresh_token: us.body.refreshToken, client_id: other }), 400, 'invalid_grant');
  await s.api(null, 'POST', '/_emulator/clock/advance', { days: 31 });
  oauthError(await postForm(`${s.us}/oauth/token`, { grant_type: 'refresh_token', refresh_token: us.body.refreshToken, client_id: us.body.clientId }), 400, 'invalid_grant');
});

test('OAuth refresh (RFC 6749 5.2 unauthorized_client): a client registered without refresh_token gets no refresh token and may not refresh', async () => {
  const id = await publicClient(s.us, { grant_types: ['authorization_code'] });
  const c = await codeFor(s.us, 'Ada Admin', id);
  const t = await exchange(s.us, c);
  assert.equal(t.status, 200);
  assert.equal(t.body.refresh_token, undefined);
  oauthError(await postForm(`${s.us}/oauth/token`, { grant_type: 'refresh_token', refresh_token: 'wfe_rt_x', client_id: id }), 400, 'unauthorized_client');
});

// ── revocation (RFC 7009) ─────────────────────────────────────────────────────────────────

test('OAuth revoke (RFC 7009 2.1): an access token stops at once (401 API_KEY_REVOKED mid-session); its refresh token goes on', async () => {
  const { clientId, tokens } = await signInRaw(s.us, 'Mia Member');
  assert.equal((await mcpPost(s.us, { Authorization: `Bearer ${tokens.access_token}` })).status, 200);
  const r = await postForm(`${s.us}/oauth/revoke`, { token: tokens.access_token, token_type_hint: 'access_token', client_id: clientId });
  assert.equal(r.status, 200);
  const after = await mcpPost(s.us, { Authorization: `Bearer ${tokens.access_token}` });
  assert.equal(after.status, 401);
  assert.equal(after.body.error.code, 'API_KEY_REVOKED');
  assert.match(after.headers.get('www-authenticate')!, /error="invalid_token", error_description="API_KEY_REVOKED"/);
  const refreshed = await postForm(`${s.us}/oauth/token`, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId });
  assert.equal(refreshed.status, 200);
});

test('OAuth revoke (RFC 7009 2.1): a refresh token ends the whole sign-in, access tokens included', async () => {
  const { clientId, tokens } = await signInRaw(s.us, 'Mia Member');
  assert.equal((await postForm(`${s.us}/oauth/revoke`, { token: tokens.refresh_token, client_id: clientId })).status, 200);
  assert.equal((await mcpPost(s.us, { Authorization: `Bearer ${tokens.access_token}` })).body.error.code, 'API_KEY_REVOKED');
  oauthError(await postForm(`${s.us}/oauth/token`, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId }), 400, 'invalid_grant');
});

test('OAuth revoke (RFC 7009 2.2): an unknown token, or one of the other region, is 200 and changes nothing; another client\'s is refused', async () => {
  const { clientId, tokens } = await signInRaw(s.us, 'Mia Member');
  assert.equal((await postForm(`${s.us}/oauth/revoke`, { token: 'wfe_at_unknown', client_id: clientId })).status, 200);
  const eu = await publicClient(s.eu);
  assert.equal((await postForm(`${s.eu}/oauth/revoke`, { token: tokens.access_token, client_id: eu })).status, 200);
  assert.equal((await mcpPost(s.us, { Authorization: `Bearer ${tokens.access_token}` })).status, 200, 'the other region revoked nothing');
  const other = await publicClient();
  oauthError(await postForm(`${s.us}/oauth/revoke`, { token: tokens.access_token, client_id: other }), 400, 'invalid_request');
  assert.equal((await mcpPost(s.us, { Authorization: `Bearer ${tokens.access_token}` })).status, 200);
  oauthError(await postForm(`${s.us}/oauth/revoke`, { token: tokens.access_token, client_id: clientId, token_type_hint: 'id_token' }), 400, 'unsupported_token_type');
  oauthError(await postForm(`${s.us}/oauth/revoke`, { client_id: clientId }), 400, 'invalid_request');
  oauthError(await postForm(`${s.us}/oauth/revoke`, { token: tokens.access_token }), 401, 'invalid_client');
});

// ── storage, the control route, --no-oauth ───────────────────────────────────────────────

test('OAuth storage: codes and tokens are kept as SHA-256 digests only', async () => {
  const { tokens, code } = await signInRaw(s.us, 'Ada Admin');
  const dump = JSON.stringify(s.emu.db.prepare('SELECT * FROM oauth_tokens').all());
  for (const v of [tokens.access_token, tokens.refresh_token, code]) assert.ok(!dump.includes(v), 'no token value in the database');
  const { createHash } = await import('node:crypto');
  assert.ok(dump.includes(createHash('sha256').update(tokens.access_token).digest('hex')));
});

test('OAuth control route POST /_emulator/oauth/tokens: refusals in the v3 envelope', async () => {
  const cases: [unknown, string][] = [
    [{}, 'workspace'],
    [{ workspace: DEMO.acme }, 'actsAs'],
    [{ workspace: 'nope', actsAs: { type: 'workspace' } }, 'workspace'],
    [{ workspace: DEMO.acme, actsAs: { type: 'member', id: DEMO.members.gus } }, 'actsAs.id'],
    [{ workspace: DEMO.acme, actsAs: { type: 'member', id: DEMO.members.gina } }, 'actsAs.id'],
    [{ workspace: DEMO.acme, actsAs: { type: 'guest' } }, 'actsAs.type'],
    [{ key: KEYS.revoked }, 'key'],
    [{ key: KEYS.admin, workspace: DEMO.acme }, 'key'],
    [{ nope: 1 }, 'nope'],
  ];
  for (const [body, field] of cases) {
    const r = await s.api(null, 'POST', '/_emulator/oauth/tokens', body);
    assert.equal(r.status, 400, JSON.stringify(body) + r.text);
    assert.equal(r.body.error.code, 'VALIDATION_ERROR');
    assert.equal(r.body.error.field, field, JSON.stringify(body));
  }
  const byKey = await s.api(null, 'POST', '/_emulator/oauth/tokens', { key: KEYS.member });
  assert.equal(byKey.status, 200);
  assert.deepEqual(byKey.body.actsAs, { type: 'key', keyName: byKey.body.actsAs.keyName, id: DEMO.members.mia, name: 'Mia Member' });
});

test('OAuth --no-oauth: no challenge, no metadata, no OAuth routes; a bearer token is not read', async () => {
  const off = await startTestServer({ oauth: false });
  try {
    const r = await mcpPost(off.us, {});
    assert.equal(r.status, 401);
    assert.equal(r.body.error.code, 'MISSING_API_KEY');
    assert.equal(r.headers.get('www-authenticate'), null);
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-authorization-server', '/oauth/authorize']) {
      assert.equal((await fetch(off.us + path)).status, 404, path);
    }
    assert.equal((await fetch(`${off.us}/oauth/token`, { method: 'POST' })).status, 404);
    assert.equal((await off.api(null, 'POST', '/_emulator/oauth/tokens', { key: KEYS.admin })).status, 404);
    const withToken = await mcpPost(off.us, { Authorization: 'Bearer wfe_at_anything' });
    assert.equal(withToken.body.error.code, 'MISSING_API_KEY');
  } finally {
    await off.close();
  }
});

test('OAuth sign-in page (spec v3 8): keys typed there meet the invalid-key throttle; the 21st in a minute is RATE_LIMIT_EXCEEDED', async () => {
  const own = await startTestServer();
  try {
    const reg = await register(own.us, { client_name: 'throttle', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
    const url = authorizeUrl(own.us, reg.body.client_id, pkce().challenge);
    const page = await openSignIn(url);
    const codes: string[] = [];
    for (let i = 0; i < 21; i++) {
      const r = await submitSignIn(url, page, { actor: 'key', api_key: `wrong-key-${i}`, decision: 'allow' });
      assert.equal(r.status, 400);
      codes.push(/<strong>([A-Z_]+)<\/strong>/.exec(await r.text())![1]);
    }
    assert.deepEqual(codes.slice(0, 20), Array(20).fill('INVALID_API_KEY'));
    assert.equal(codes[20], 'RATE_LIMIT_EXCEEDED');
  } finally {
    await own.close();
  }
});
