// test:slow: drives a headless Chromium (and needs one: see test/helpers/browser.ts).
// OAuth sign-in page in a real headless Chromium (docs/oauth.md "The sign-in page"): a native
// app's loopback redirect URI, the page opened, a member chosen, Allow pressed; the browser
// lands on the app's own listener with the code and state, and the code is worth a token that
// acts as the member. axe-core finds nothing serious; no script runs, nothing breaks the CSP.
// Folds into one skip (WFE_REQUIRE_BROWSER=1: a failure) where there is no Chromium.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, DEMO, ROOT, type TestServer } from './helpers/server';
import { browserSuite } from './helpers/browser';
import { axe, launch, type Browser } from './helpers/console';
import { authorizeUrl, mcpPost, pkce, postForm, register } from './helpers/oauth';

const { test, before, after } = browserSuite('OAuth sign-in page in Chromium (issue 38)');

let s: TestServer;
let browser: Browser;
/** The native app's loopback listener: what the browser brings back to it. */
let app: Server;
let appUrl: string;
const landed: URL[] = [];

before(async () => {
  s = await startTestServer();
  browser = await launch();
  app = createServer((req, res) => {
    const url = new URL(req.url!, appUrl);
    if (url.pathname === '/callback') landed.push(url);
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Signed in</title><p>You may close this tab.</p>');
  });
  await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
});
after(async () => {
  await browser?.close();
  await s?.close();
  await new Promise((r) => app?.close(r));
});

for (const [region, as, memberId] of [
  ['US', 'Mia Member', DEMO.members.mia],
  ['EU', 'Gina Global', DEMO.members.gina],
] as const) {
  test(`OAuth (issue 38): in Chromium, the ${region} sign-in page signs in as ${as} and hands the code to the app's loopback address`, async () => {
    const base = region === 'US' ? s.us : s.eu;
    const redirect = `${appUrl}/callback`;
    const reg = await register(base, { client_name: 'Chromium test app', redirect_uris: [redirect], token_endpoint_auth_method: 'none' });
    assert.equal(reg.status, 201);
    const { verifier, challenge } = pkce();
    const tab = await browser.tab();
    const blocked: string[] = [];
    tab.on('console', (m) => /Content Security Policy|Refused to/i.test(m.text()) && blocked.push(m.text()));
    try {
      await tab.goto(authorizeUrl(base, reg.body.client_id, challenge, { redirect_uri: redirect, state: `st-${region}` }));
      assert.equal(await tab.title(), 'Sign in · Workflow Emulator');
      assert.match(await tab.locator('main').innerText(), /Chromium test app/);
      await axe(tab, `sign-in page ${region}`);
      if (region === 'US') {
        mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
        await tab.screenshot({ path: join(ROOT, 'test-artifacts', 'oauth-sign-in.png'), fullPage: true });
      }
      await tab.getByLabel('Act as').selectOption({ label: (await tab.locator('#actor option', { hasText: as }).first().textContent())! });
      await Promise.all([tab.waitForURL(`${redirect}?**`), tab.getByRole('button', { name: 'Allow' }).click()]);
      const back = landed.at(-1)!;
      assert.equal(back.pathname, '/callback');
      assert.equal(back.searchParams.get('state'), `st-${region}`);
      assert.equal(back.searchParams.get('iss'), base);
      const t = await postForm(`${base}/oauth/token`, { grant_type: 'authorization_code', code: back.searchParams.get('code')!, code_verifier: verifier, redirect_uri: redirect, client_id: reg.body.client_id });
      assert.equal(t.status, 200, t.text);
      const call = await mcpPost(base, { Authorization: `Bearer ${t.body.access_token}` }, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_member', arguments: { memberId } } });
      assert.equal(call.status, 200);
      assert.equal(call.body.result.isError, undefined);
      assert.deepEqual(tab.errors, []);
      assert.deepEqual(blocked, [], 'nothing on the page met the CSP');
    } finally {
      await tab.close();
    }
  });
}

test('OAuth (issue 38): in Chromium, a refused choice shows the API\'s words on the page, and Deny returns access_denied', async () => {
  const redirect = `${appUrl}/callback`;
  const reg = await register(s.us, { client_name: 'Chromium test app', redirect_uris: [redirect], token_endpoint_auth_method: 'none' });
  const tab = await browser.tab();
  try {
    await tab.goto(authorizeUrl(s.us, reg.body.client_id, pkce().challenge, { redirect_uri: redirect, state: 'st-deny' }));
    await tab.getByLabel('Act as').selectOption({ label: 'The API key typed below' });
    await tab.getByLabel(/API key \(only with/).fill('acme-revoked-key');
    await Promise.all([tab.waitForLoadState('load'), tab.getByRole('button', { name: 'Allow' }).click()]);
    await tab.getByRole('alert').waitFor();
    assert.match(await tab.getByRole('alert').innerText(), /API_KEY_REVOKED/);
    await axe(tab, 'sign-in page with a refusal');
    await Promise.all([tab.waitForURL(`${redirect}?**`), tab.getByRole('button', { name: 'Deny' }).click()]);
    const back = landed.at(-1)!;
    assert.equal(back.searchParams.get('error'), 'access_denied');
    assert.equal(back.searchParams.get('state'), 'st-deny');
  } finally {
    await tab.close();
  }
});
