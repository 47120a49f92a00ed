// OAuth sign-in on /mcp, discovery, registration and the authorization endpoint (issue 38 "Bad
// input"; docs/oauth.md "Discovery", "Registration", "The sign-in page", "Refusals"): every
// refusal, in the RFCs' own body ({"error", "error_description"}), and the Host and Origin rules on
// every new route.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { REDIRECT, authorizeUrl, openSignIn, pkce, register, submitSignIn, choice, oauthError, publicClient } from './helpers/oauth';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

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

test('OAuth authorize (RFC 6749 4.1.2.1): an unknown client, a client of the other region, an unregistered redirect URI are shown, never redirected', async () => {
  const id = await publicClient(s.us);
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
  const id = await publicClient(s.us);
  const { challenge } = pkce();
  const page = await openSignIn(authorizeUrl(s.us, id, challenge, { redirect_uri: 'http://127.0.0.1:61000/callback' }));
  assert.equal(page.status, 200);
  const res = await submitSignIn(s.us, page, { actor: choice(page, 'Ada Admin'), decision: 'allow' });
  assert.equal(res.status, 303);
  assert.match(res.headers.get('location')!, /^http:\/\/127\.0\.0\.1:61000\/callback\?code=wfe_ac_/);
});

test('OAuth authorize (OAuth 2.1 4.1.1, RFC 7636 4.4.1): a request without PKCE S256, of another response type or for the other region is redirected back with the error and state', async () => {
  const id = await publicClient(s.us);
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
  const id = await publicClient(s.us);
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
  const id = await publicClient(s.us);
  const r = await fetch(authorizeUrl(s.us, id, pkce().challenge), { headers: { Accept: 'text/html' } });
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('x-frame-options'), 'DENY');
  assert.match(r.headers.get('content-security-policy')!, /default-src 'none'.*frame-ancestors 'none'/);
  assert.equal(r.headers.get('cache-control'), 'no-store');
  assert.doesNotMatch(await r.text(), /<script/);
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
