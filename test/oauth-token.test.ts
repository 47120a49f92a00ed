// OAuth sign-in on /mcp, the token and revocation endpoints (issue 38 "Bad input"; docs/oauth.md
// "Tokens", "Refusals"): PKCE, codes once and for a minute, client authentication, refresh
// rotation with replay detection, revocation, tokens kept as digests. Refusals in the RFCs' body.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, DEMO, type TestServer } from './helpers/server';
import { REDIRECT, authorizeUrl, browserSignIn, mcpPost, pkce, postForm, register, signInRaw, oauthError, publicClient, codeFor, exchange } from './helpers/oauth';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

test('OAuth token (RFC 7636 4.6): a wrong verifier is invalid_grant, and the code still works once with the right one', async () => {
  const c = await codeFor(s.us);
  oauthError(await exchange(s.us, c, { code_verifier: pkce().verifier }), 400, 'invalid_grant');
  oauthError(await exchange(s.us, c, { code_verifier: 'short' }), 400, 'invalid_grant');
  const ok = await exchange(s.us, c);
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.headers.get('cache-control'), 'no-store');
  assert.equal(ok.body.token_type, 'Bearer');
  assert.equal(ok.body.expires_in, 900);
});

test('OAuth token (OAuth 2.1 4.1.3): a code used twice is invalid_grant, and the tokens of its first use are revoked', async () => {
  const c = await codeFor(s.us);
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
  const c = await codeFor(s.us);
  await s.api(null, 'POST', '/_emulator/clock/advance', { seconds: 61 });
  oauthError(await exchange(s.us, c), 400, 'invalid_grant');
});

test('OAuth token: the redirect URI and resource must be those of the authorization request', async () => {
  const c = await codeFor(s.us);
  oauthError(await exchange(s.us, c, { redirect_uri: 'http://127.0.0.1:49152/other' }), 400, 'invalid_grant');
  oauthError(await exchange(s.us, c, { resource: `${s.eu}/mcp` }), 400, 'invalid_target');
  const noRedirect = await postForm(`${s.us}/oauth/token`, { grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, client_id: c.clientId });
  oauthError(noRedirect, 400, 'invalid_grant');
  assert.equal((await exchange(s.us, c)).status, 200, 'refusals before it did not spend the code');
});

test('OAuth token (RFC 6749 5.2): an unknown client, another client\'s code, a client of the other region are refused', async () => {
  const c = await codeFor(s.us);
  oauthError(await exchange(s.us, c, { client_id: 'wfe-client-nobody' }), 401, 'invalid_client');
  const other = await publicClient(s.us);
  oauthError(await exchange(s.us, c, { client_id: other }), 400, 'invalid_grant');
  const eu = await publicClient(s.eu);
  oauthError(await exchange(s.us, c, { client_id: eu }), 401, 'invalid_client');
  // The code of a US sign-in at the EU token endpoint, for an EU client: not this server's.
  oauthError(await exchange(s.eu, c, { client_id: eu }), 400, 'invalid_grant');
  const missing = await postForm(`${s.us}/oauth/token`, { grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, redirect_uri: REDIRECT });
  oauthError(missing, 401, 'invalid_client');
});

test('OAuth token (RFC 6749 5.2, 3.1, 3.2): grant type missing or unsupported, parameters sent twice, a body that is not a form', async () => {
  const id = await publicClient(s.us);
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
  const pub = await publicClient(s.us);
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
  const other = await publicClient(s.us);
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
  const other = await publicClient(s.us);
  oauthError(await postForm(`${s.us}/oauth/revoke`, { token: tokens.access_token, client_id: other }), 400, 'invalid_request');
  assert.equal((await mcpPost(s.us, { Authorization: `Bearer ${tokens.access_token}` })).status, 200);
  oauthError(await postForm(`${s.us}/oauth/revoke`, { token: tokens.access_token, client_id: clientId, token_type_hint: 'id_token' }), 400, 'unsupported_token_type');
  oauthError(await postForm(`${s.us}/oauth/revoke`, { client_id: clientId }), 400, 'invalid_request');
  oauthError(await postForm(`${s.us}/oauth/revoke`, { token: tokens.access_token }), 401, 'invalid_client');
});

test('OAuth storage: codes and tokens are kept as SHA-256 digests only', async () => {
  const { tokens, code } = await signInRaw(s.us, 'Ada Admin');
  const dump = JSON.stringify(s.emu.db.prepare('SELECT * FROM oauth_tokens').all());
  for (const v of [tokens.access_token, tokens.refresh_token, code]) assert.ok(!dump.includes(v), 'no token value in the database');
  const { createHash } = await import('node:crypto');
  assert.ok(dump.includes(createHash('sha256').update(tokens.access_token).digest('hex')));
});
