// OAuth sign-in on /mcp, the whole flow with the MCP SDK's own client auth (issue 38, "Done
// when"; EMULATOR.md "Agents, audits and packaging"; docs/oauth.md): the SDK meets the 401,
// reads the WWW-Authenticate challenge, discovers the metadata, registers, sends the browser to
// the sign-in page (driven here with fetch, as a browser submits the form), exchanges the code
// and calls tools as the member chosen, on both regions. A token acts exactly as that member's
// key: the same answers, the same journal, the same budget.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { startTestServer, KEYS, DEMO, callTool, mcpHttpClient, withoutRequestId, type TestServer } from './helpers/server';
import { MemoryProvider, browserSignIn, mcpPost } from './helpers/oauth';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

/** Connects with the SDK's authProvider: 401, discovery, registration, the browser step, the code exchange. */
async function signedIn(base: string, as: string, provider = new MemoryProvider()): Promise<{ client: Client; provider: MemoryProvider }> {
  const url = new URL(`${base}/mcp`);
  const first = new Client({ name: 'oauth-test', version: '1.0.0' });
  await assert.rejects(first.connect(new StreamableHTTPClientTransport(url, { authProvider: provider })), UnauthorizedError);
  assert.ok(provider.authorizationUrl, 'the SDK sent the browser to the sign-in page');
  assert.equal(provider.authorizationUrl.origin, base, 'the sign-in page is on the same regional address');
  assert.equal(provider.authorizationUrl.pathname, '/oauth/authorize');
  const back = await browserSignIn(provider.authorizationUrl, as);
  assert.equal(back.get('state'), provider.authorizationUrl.searchParams.get('state'), 'state comes back unchanged');
  assert.equal(back.get('iss'), base, 'RFC 9207: the issuer is named');
  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await transport.finishAuth(back.get('code')!);
  assert.ok(provider.saved?.access_token.startsWith('wfe_at_'));
  assert.ok(provider.saved?.refresh_token?.startsWith('wfe_rt_'));
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return { client, provider };
}

test('OAuth (issue 38): the MCP SDK signs in on the US address as Mia Member and calls tools as her, as her key does', async () => {
  const { client } = await signedIn(s.us, 'Mia Member');
  try {
    const tools = await client.listTools();
    assert.ok(tools.tools.some((t) => t.name === 'list_my_work'));
    // The Tasks grid is the acting member's (spec v3 5.3): the token's answer is her key's.
    const viaToken = await callTool(client, 'list_my_work', {});
    const key = await mcpHttpClient(`${s.us}/mcp`, KEYS.member);
    const viaKey = await callTool(key, 'list_my_work', {});
    await key.close();
    assert.equal(viaToken.isError, false, viaToken.text);
    assert.deepEqual(viaToken.body, viaKey.body);
    // A change is recorded in her name (spec v3 5.3).
    const c = await callTool(client, 'add_task_comment', { checklistKey: DEMO.janeDoe, taskKey: DEMO.tasks.collectDetails, text: 'signed in with OAuth' });
    assert.equal(c.isError, false, c.text);
    assert.deepEqual(c.body.createdBy, { name: 'Mia Member', email: 'mia@acme.test' });
    // The journal names the sign-in as it names a key.
    const journal = await s.api(null, 'GET', '/_emulator/journal?limit=5');
    const entry = journal.body.items.find((e: any) => e.path === '/mcp' && e.status === 200);
    assert.match(entry.keyName, /^OAuth: wfe OAuth test$/);
  } finally {
    await client.close();
  }
});

test('OAuth (issue 38): the EU address signs in on its own, as Gina Global, and lists only Globex', async () => {
  const { client } = await signedIn(s.eu, 'Gina Global');
  try {
    const viaToken = await callTool(client, 'list_members', {});
    const key = await mcpHttpClient(`${s.eu}/mcp`, KEYS.globexAdmin);
    const viaKey = await callTool(key, 'list_members', {});
    await key.close();
    assert.equal(viaToken.isError, false, viaToken.text);
    assert.deepEqual(viaToken.body, viaKey.body);
    assert.ok(viaToken.body.items.every((m: any) => m.email?.endsWith('globex.test') ?? true));
  } finally {
    await client.close();
  }
});

test('OAuth (issue 38): the sign-in page offers only that region\'s workspace, Administrators and Members, and the workspace', async () => {
  const provider = new MemoryProvider();
  await assert.rejects(new Client({ name: 't', version: '1' }).connect(new StreamableHTTPClientTransport(new URL(`${s.us}/mcp`), { authProvider: provider })), UnauthorizedError);
  const { openSignIn } = await import('./helpers/oauth');
  const page = await openSignIn(provider.authorizationUrl!);
  const labels = page.options.map((o) => o.label);
  assert.ok(labels.some((l) => l.startsWith('Ada Admin, Administrator')));
  assert.ok(labels.some((l) => l.startsWith('Mia Member, Member')));
  assert.ok(labels.some((l) => l.startsWith('The workspace Acme Corp')));
  assert.ok(labels.some((l) => l.startsWith('The API key typed below')));
  assert.ok(!labels.some((l) => l.startsWith('Gus Guest')), 'a Guest is not offered (spec v3 5.2)');
  assert.ok(!labels.some((l) => l.startsWith('Dee Departed')), 'a deactivated member is not offered');
  assert.ok(!labels.some((l) => l.startsWith('Gina Global')), "the other region's workspace is not offered");
  // In the console's look, with no script and no framing.
  assert.match(page.html, /<link rel="stylesheet" href="\/oauth\/style.css">/);
  assert.match(page.html, /<header class="top">/);
  const css = await fetch(`${s.us}/oauth/style.css`);
  assert.equal(css.status, 200);
  assert.match(await css.text(), /--accent: #0b5cad/);
});

test('OAuth (issue 38): an access token that expires mid-session is 401 API_KEY_EXPIRED; the SDK refreshes and carries on', async () => {
  const { client, provider } = await signedIn(s.us, 'Ada Admin');
  try {
    const before = provider.saved!;
    assert.equal((await callTool(client, 'list_tags', {})).isError, false);
    // Past the access token's 15 minutes (emulator clock).
    await s.api(null, 'POST', '/_emulator/clock/advance', { minutes: 16 });
    const raw = await mcpPost(s.us, { Authorization: `Bearer ${before.access_token}` });
    assert.equal(raw.status, 401);
    assert.equal(raw.body.error.code, 'API_KEY_EXPIRED');
    assert.match(raw.headers.get('www-authenticate')!, /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource", error="invalid_token"/);
    const again = await callTool(client, 'list_tags', {});
    assert.equal(again.isError, false, again.text);
    assert.notEqual(provider.saved!.access_token, before.access_token, 'a new access token');
    assert.notEqual(provider.saved!.refresh_token, before.refresh_token, 'the refresh token was rotated');
  } finally {
    await client.close();
  }
});

test('OAuth (issue 38): a token and a key of the same workspace share its rate budget (spec v3 8)', async () => {
  const { client, provider } = await signedIn(s.us, 'Omar Owner');
  try {
    const viaKey = await mcpPost(s.us, { 'X-API-KEY': KEYS.admin }, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_tags', arguments: {} } });
    const viaToken = await mcpPost(s.us, { Authorization: `Bearer ${provider.saved!.access_token}` }, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_tags', arguments: {} } });
    assert.equal(viaToken.status, 200);
    assert.equal(viaToken.headers.get('x-ratelimit-bucket'), 'standard');
    assert.equal(Number(viaToken.headers.get('x-ratelimit-remaining')), Number(viaKey.headers.get('x-ratelimit-remaining')) - 1);
    // The same answer as the key's.
    assert.deepEqual(withoutRequestId(viaToken.body.result.structuredContent), withoutRequestId(viaKey.body.result.structuredContent));
  } finally {
    await client.close();
  }
});

test('OAuth (issue 38): a sign-in as the workspace acts as a workspace key: a route about a person is 403 API_KEY_ACTS_AS_WORKSPACE (spec v3 4.6 rule 3)', async () => {
  const { client } = await signedIn(s.us, 'The workspace Acme Corp');
  try {
    const r = await callTool(client, 'list_my_work', {});
    assert.equal(r.isError, true);
    assert.equal(r.body.error.code, 'API_KEY_ACTS_AS_WORKSPACE');
    const members = await callTool(client, 'list_members', {});
    assert.equal(members.isError, false, members.text);
  } finally {
    await client.close();
  }
});

test('OAuth (issue 38): a sign-in through a typed API key acts as that key, and stops when the key is revoked (401 API_KEY_REVOKED)', async () => {
  const made = await s.api(null, 'POST', '/_emulator/keys', { workspace: DEMO.acme, name: 'typed on the sign-in page', actsAs: { type: 'member', id: DEMO.members.nora } });
  assert.equal(made.status, 201, made.text);
  const p = new MemoryProvider();
  await assert.rejects(new Client({ name: 't', version: '1' }).connect(new StreamableHTTPClientTransport(new URL(`${s.us}/mcp`), { authProvider: p })), UnauthorizedError);
  const back = await browserSignIn(p.authorizationUrl!, { key: made.body.key });
  const transport = new StreamableHTTPClientTransport(new URL(`${s.us}/mcp`), { authProvider: p });
  await transport.finishAuth(back.get('code')!);
  const c = new Client({ name: 't', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${s.us}/mcp`), { authProvider: p }));
  try {
    const viaToken = await callTool(c, 'list_my_work', {});
    assert.equal(viaToken.isError, false, viaToken.text);
    const journal = await s.api(null, 'GET', '/_emulator/journal?limit=3');
    assert.equal(journal.body.items.find((e: any) => e.path === '/mcp').keyName, 'typed on the sign-in page', 'the journal names the key, as for the key itself');
    const revoked = await s.api(null, 'DELETE', `/_emulator/keys/${made.body.apiKey.id}`);
    assert.equal(revoked.status, 200, revoked.text);
    const raw = await mcpPost(s.us, { Authorization: `Bearer ${p.saved!.access_token}` });
    assert.equal(raw.status, 401);
    assert.equal(raw.body.error.code, 'API_KEY_REVOKED');
    assert.match(raw.headers.get('www-authenticate')!, /error="invalid_token"/);
  } finally {
    await c.close();
  }
});

test('OAuth (issue 38): parallel tool calls that all meet the access token\'s expiry each refresh, and all carry on', async () => {
  const { client, provider } = await signedIn(s.us, 'Ada Admin');
  try {
    await s.api(null, 'POST', '/_emulator/clock/advance', { minutes: 16 });
    await s.api(null, 'DELETE', '/_emulator/journal');
    const results = await Promise.all([1, 2, 3].map(() => callTool(client, 'list_tags', {})));
    for (const r of results) assert.equal(r.isError, false, r.text);
    const journal = await s.api(null, 'GET', '/_emulator/journal?limit=50');
    const refreshes = journal.body.items.filter((e: any) => e.path === '/oauth/token' && e.status === 200).length;
    assert.ok(refreshes >= 2, `the SDK refreshed once per call that met the 401 (${refreshes})`);
    assert.equal((await mcpPost(s.us, { Authorization: `Bearer ${provider.saved!.access_token}` })).status, 200, 'the sign-in was not ended');
  } finally {
    await client.close();
  }
});

test('OAuth (issue 38): the SDK signs in on the localhost name too, with a confidential client (client_secret_basic)', async () => {
  const local = s.eu.replace('127.0.0.1', 'localhost');
  const { client, provider } = await signedIn(local, 'Gina Global', new MemoryProvider('confidential test', undefined, 'client_secret_basic'));
  try {
    assert.match(String((provider.info as any).client_secret), /^wfe_cs_/);
    const r = await callTool(client, 'list_members', {});
    assert.equal(r.isError, false, r.text);
  } finally {
    await client.close();
  }
});
