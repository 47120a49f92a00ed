// OAuth sign-in on /mcp, what the MCP server answers (issue 38 "Bad input"; docs/oauth.md "What a
// token acts as"): the spec's 401 body and code (spec v3 7) with the WWW-Authenticate challenge,
// 421 across regions, /v3 key-only, the key's own refusals through a sign-in, the control route
// that signs in without a browser, and --no-oauth.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { mcpPost, postForm, signInRaw, codeFor } from './helpers/oauth';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

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
  const c = await codeFor(s.us);
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
