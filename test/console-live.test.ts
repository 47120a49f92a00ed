// Issue 21 (and issue 20's live-feed part): the console's own reads cost the API nothing and
// an idle tab makes no request; its change feeds leak nothing (the page feed carries only
// change signals of the page's workspace; the panel feed sits behind the admin gate, with
// EventSource signed in by a cookie); a frozen clock leaves the panel still.
// test:slow: drives a headless Chromium (and needs one: see test/helpers/browser.ts).
import { browserSuite } from './helpers/browser';
import assert from 'node:assert/strict';
import { startTestServer, budgetSpent, KEYS, DEMO, type TestServer } from './helpers/server';
import { startConsole, stopConsole, cookieOf, openFeed, type Browser } from './helpers/console';

const { test, before, after } = browserSuite('console feeds and idle tabs in Chromium (issue 21)');

let s: TestServer;
let browser: Browser;

before(async () => {
  ({ s, browser } = await startConsole());
});

after(() => stopConsole(browser, s));

/** A browser's console session: the cookie the page shell sets. */
async function consoleCookie(base: string): Promise<string> {
  return cookieOf(await fetch(`${base}/app`), 'wfe_console');
}

const journalCount = async (query = '') => (await (await fetch(`${s.us}/_emulator/journal?limit=1000${query}`)).json()).items.length as number;

test('issue 21: a checklist tab left open 30 s spends 0 requests of any budget, makes no request at all, and adds 0 journal entries by default', async () => {
  const checklistPath = `/v3/checklists/${DEMO.janeDoe}`;
  const standard0 = await s.api(KEYS.member, 'GET', checklistPath);
  const cheap0 = await s.api(KEYS.member, 'GET', '/v3/auth/test');
  assert.equal(standard0.headers.get('x-ratelimit-bucket'), 'standard');
  assert.equal(cheap0.headers.get('x-ratelimit-bucket'), 'cheap');
  const journal0 = await journalCount();

  const page = await browser.tab();
  await page.goto(standard0.body.url);
  await page.locator(`[data-task="${DEMO.tasks.collectDetails}"]`).waitFor();
  await page.getByRole('link', { name: 'Collect employee details' }).click();
  await page.getByRole('heading', { level: 2, name: 'Collect employee details' }).waitFor();
  await page.waitForTimeout(1000); // the last reads of the page load settle
  const requests: string[] = [];
  page.on('request', (r) => requests.push(`${r.method()} ${r.url()}`));
  await page.waitForTimeout(30_000);
  assert.deepEqual(requests, [], 'an idle tab makes no request');

  const standard1 = await s.api(KEYS.member, 'GET', checklistPath);
  const cheap1 = await s.api(KEYS.member, 'GET', '/v3/auth/test');
  // Each bucket moved by exactly the one read made here: the page load and the 30 s cost nothing.
  assert.equal(budgetSpent(standard0, standard1), 1);
  assert.equal(budgetSpent(cheap0, cheap1), 1);
  assert.equal(await journalCount(), journal0 + 2, 'only the two reads of this test');
  assert.ok((await journalCount('&console=true')) > journal0 + 2, 'the console traffic is there when asked for');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('issue 21: /app/_/v3 answers as /v3 does (same body, same refusals), charged to no budget, and only to a browser with a console session; no header makes /v3 uncharged', async () => {
  const cookie = await consoleCookie(s.us);
  const path = `/checklists/${DEMO.janeDoe}`;
  const direct = await s.api(KEYS.member, 'GET', `/v3${path}`);
  const viaConsole = await s.api(KEYS.member, 'GET', `/app/_/v3${path}`, undefined, { Cookie: cookie });
  assert.equal(viaConsole.status, 200);
  assert.deepEqual(viaConsole.body, direct.body);
  assert.equal(viaConsole.headers.get('x-ratelimit-remaining'), null, 'not charged, so no budget headers');

  // Refusals are the API's own: unknown checklist, a bad body, the other region's key.
  const missing = await s.api(KEYS.member, 'GET', '/v3/checklists/30000000-0000-4000-8000-00000000ffff');
  const missingC = await s.api(KEYS.member, 'GET', '/app/_/v3/checklists/30000000-0000-4000-8000-00000000ffff', undefined, { Cookie: cookie });
  assert.equal(missingC.status, missing.status);
  assert.equal(missingC.body.error.code, missing.body.error.code);
  assert.equal(missingC.body.error.message, missing.body.error.message);
  const bad = await s.api(KEYS.member, 'PUT', `/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.collectDetails}/due-date`, { dueDateTime: 'soon' });
  const badC = await s.api(KEYS.member, 'PUT', `/app/_/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.collectDetails}/due-date`, { dueDateTime: 'soon' }, { Cookie: cookie });
  assert.equal(badC.status, 400);
  assert.deepEqual({ ...badC.body.error, requestId: 0 }, { ...bad.body.error, requestId: 0 });
  const noKey = await s.api(null, 'GET', `/app/_/v3${path}`, undefined, { Cookie: cookie });
  assert.equal(noKey.status, 401);
  const region = await s.api(KEYS.member, 'GET', `/app/_/v3${path}`, undefined, { Cookie: cookie }, s.eu);
  assert.equal(region.status, 421);
  assert.equal(region.body.error.code, 'WRONG_REGION');
  assert.equal(region.body.error.url, `${s.us}/v3${path}`, 'the url names the API route');
  const wrongMethod = await s.api(KEYS.member, 'PUT', `/app/_/v3/templates`, {}, { Cookie: cookie });
  const wrongMethodV3 = await s.api(KEYS.member, 'PUT', `/v3/templates`, {});
  assert.equal(wrongMethodV3.status, 405);
  assert.equal(wrongMethod.status, 405);
  assert.equal(wrongMethod.headers.get('allow'), wrongMethodV3.headers.get('allow'));

  // No console session: refused, and nothing ran.
  for (const headers of [{}, { Cookie: 'wfe_console=forged' }] as Record<string, string>[]) {
    const r = await s.api(KEYS.member, 'GET', `/app/_/v3${path}`, undefined, headers);
    assert.equal(r.status, 401);
    assert.equal(r.body.error.code, 'CONSOLE_SESSION_REQUIRED');
  }
  // /v3 stays charged whatever the request carries.
  const a = await s.api(KEYS.member, 'GET', `/v3${path}`);
  const b = await s.api(KEYS.member, 'GET', `/v3${path}`, undefined, { Cookie: cookie, 'X-Console': '1', Origin: s.us, 'Sec-Fetch-Site': 'same-origin' });
  assert.equal(budgetSpent(a, b), 1);
});

test('issue 20 "the live feed leaks nothing" (with --admin-token): the page feed carries change signals of its own workspace only and no request id; the panel feed refuses without the token and lets EventSource in by the sign-in cookie', async () => {
  const g = await startTestServer({ adminToken: 'feed-token' });
  try {
    const cookie = await consoleCookie(g.us);
    // A ticket for the member key's workspace (acme); the key never goes in a URL.
    const noSession = await g.api(KEYS.member, 'POST', '/app/_/feeds');
    assert.equal(noSession.status, 401);
    const badKey = await g.api('nope', 'POST', '/app/_/feeds', undefined, { Cookie: cookie });
    assert.equal(badKey.status, 401, 'a refused key gets no feed');
    const ticket = await g.api(KEYS.member, 'POST', '/app/_/feeds', undefined, { Cookie: cookie });
    assert.equal(ticket.status, 200);
    assert.equal((await openFeed(`${g.us}/app/_/live?feed=unknown`, { Cookie: cookie })).status, 404);
    assert.equal((await openFeed(`${g.us}/app/_/live?feed=${ticket.body.feed}`)).status, 401, 'no console session');

    const feed = await openFeed(`${g.us}/app/_/live?feed=${ticket.body.feed}`, { Cookie: cookie });
    assert.equal(feed.status, 200);
    const [first] = (await feed.waitFor(1)) as { data: number; clock: object }[];
    assert.deepEqual(Object.keys(first).sort(), ['clock', 'data']);
    assert.deepEqual(Object.keys(first.clock).sort(), ['frozen', 'now', 'offsetMs']);

    // Another workspace writes (globex, reads and writes): nothing reaches acme's feed.
    const other = await g.api(KEYS.globexAdmin, 'POST', '/v3/checklists', { templateKey: DEMO.globexAudit, name: 'Elsewhere' }, {}, g.eu);
    assert.equal(other.status, 201, other.text);
    await g.api(KEYS.member, 'GET', `/v3/checklists/${DEMO.janeDoe}`); // a read of acme changes nothing either
    await new Promise((r) => setTimeout(r, 1200));
    assert.equal(feed.events().length, 1, `nothing of another workspace, no read: ${feed.raw()}`);

    // acme writes: one signal, with nothing in it but the moved stamp.
    const mine = await g.api(KEYS.admin, 'PUT', `/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.collectDetails}/due-date`, { dueDateTime: '2031-01-01T09:00:00Z' });
    assert.equal(mine.status, 200, mine.text);
    const events = (await feed.waitFor(2)) as { data: number }[];
    assert.ok(events[1].data > first.data);
    assert.doesNotMatch(feed.raw(), /req_|requestId|journal/i, 'no request id, no journal');
    feed.close();

    // The panel feed: refused without the token, with a wrong one, and open to the sign-in cookie.
    const bare = await openFeed(`${g.us}/app/_/live/panel`, { Cookie: cookie });
    assert.equal(bare.status, 401);
    assert.equal((bare.body as { error: { code: string } }).error.code, 'MISSING_ADMIN_TOKEN');
    const wrong = await fetch(`${g.us}/app/_/sign-in`, { method: 'POST', headers: { Authorization: 'Bearer nope' } });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.getSetCookie().length, 0);
    const signIn = await fetch(`${g.us}/app/_/sign-in`, { method: 'POST', headers: { Authorization: 'Bearer feed-token' } });
    assert.equal(signIn.status, 204);
    const adminCookie = cookieOf(signIn, 'wfe_admin');
    assert.match(signIn.headers.getSetCookie()[0], /HttpOnly; SameSite=Strict/);
    assert.doesNotMatch(adminCookie, /feed-token/, 'the cookie is a session id, not the token');
    assert.equal((await openFeed(`${g.us}/app/_/live/panel`, { Cookie: 'wfe_admin=forged' })).status, 401);
    const panel = await openFeed(`${g.us}/app/_/live/panel`, { Cookie: adminCookie });
    assert.equal(panel.status, 200);
    assert.deepEqual(Object.keys(((await panel.waitFor(1))[0]) as object).sort(), ['clock', 'data', 'journal', 'journalWithConsole']);
    panel.close();
    const withBearer = await openFeed(`${g.us}/app/_/live/panel`, { Authorization: 'Bearer feed-token' });
    assert.equal(withBearer.status, 200);
    withBearer.close();
    // Signing out forgets the cookie's session.
    const out = await fetch(`${g.us}/app/_/sign-in`, { method: 'DELETE', headers: { Cookie: adminCookie } });
    assert.equal(out.status, 204);
    assert.equal((await openFeed(`${g.us}/app/_/live/panel`, { Cookie: adminCookie })).status, 401);
  } finally {
    await g.close();
  }
});

test('issue 20 live feed under --no-admin: pages still follow changes; the panel feed and sign-in do not exist', async () => {
  const off = await startTestServer({ noAdmin: true });
  try {
    const cookie = await consoleCookie(off.us);
    const ticket = await off.api(KEYS.member, 'POST', '/app/_/feeds', undefined, { Cookie: cookie });
    assert.equal(ticket.status, 200);
    const feed = await openFeed(`${off.us}/app/_/live?feed=${ticket.body.feed}`, { Cookie: cookie });
    assert.equal(feed.status, 200);
    await feed.waitFor(1);
    const done = await off.api(KEYS.admin, 'PUT', `/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.collectDetails}/due-date`, { dueDateTime: '2031-01-01T09:00:00Z' });
    assert.equal(done.status, 200);
    await feed.waitFor(2);
    feed.close();
    assert.equal((await openFeed(`${off.us}/app/_/live/panel`, { Cookie: cookie })).status, 404);
    assert.equal((await fetch(`${off.us}/app/_/sign-in`, { method: 'POST' })).status, 404);
  } finally {
    await off.close();
  }
});

test('issue 21 panel: a frozen clock makes no DOM change for 5 s; the clock card updates in place (no "Loading…"); the journal pages 50 at a time and filters by key, route and status', async () => {
  assert.equal((await fetch(`${s.us}/_emulator/clock`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ now: '2030-01-01T09:00:00Z', frozen: true }) })).status, 200);
  try {
    const page = await browser.tab();
    await page.goto(`${s.us}/app/emulator`);
    await page.getByTestId('clock-now').filter({ hasText: '2030-01-01 09:00 UTC' }).waitFor();
    await page.getByTestId('journal').waitFor();
    await page.waitForTimeout(1000);
    await page.evaluate(() => {
      const w = window as unknown as { __mutations: number };
      w.__mutations = 0;
      new MutationObserver((list) => (w.__mutations += list.length)).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    await page.waitForTimeout(5000);
    assert.equal(await page.evaluate(() => (window as unknown as { __mutations: number }).__mutations), 0, 'a frozen clock is still');

    // Advancing: the card changes in place, its buttons are the same elements, no "Loading…".
    await page.evaluate(() => {
      const w = window as unknown as { __freeze: Element | null; __loading: number };
      w.__freeze = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Unfreeze') ?? null;
      w.__loading = 0;
      new MutationObserver(() => {
        if (document.querySelector('#clock-h')?.parentElement?.textContent?.includes('Loading')) w.__loading++;
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole('button', { name: 'Advance' }).click();
    await page.getByTestId('clock-now').filter({ hasText: '2030-01-02 09:00 UTC' }).waitFor();
    assert.equal(await page.evaluate(() => (window as unknown as { __loading: number }).__loading), 0);
    assert.ok(await page.evaluate(() => (window as unknown as { __freeze: Element | null }).__freeze?.isConnected), 'the same button, updated in place');

    // 60 requests to page through; filters narrow them.
    for (let i = 0; i < 55; i++) await s.api(KEYS.member, 'GET', `/v3/checklists/${DEMO.janeDoe}`);
    const gone = '/v3/checklists/30000000-0000-4000-8000-00000000abcd';
    for (let i = 0; i < 5; i++) await s.api(KEYS.member, 'GET', gone);
    const card = page.locator('section', { has: page.locator('#journal-h') });
    await card.getByText(/^1–50 of \d+$/).waitFor();
    assert.equal(await card.locator('tbody tr').count(), 50);
    await card.getByRole('button', { name: 'Next journal' }).click();
    await card.getByText(/^51–\d+ of \d+$/).waitFor();
    await card.getByLabel('Status').fill('404');
    await card.getByLabel('Route').fill(gone);
    await card.getByText(/^1–5 of 5$/).waitFor();
    assert.deepEqual([...new Set(await card.locator('tbody tr td:nth-child(4)').allTextContents())], ['404']);
    await card.getByLabel('Status').fill('2xx');
    await card.getByLabel('Route').fill(`/v3/checklists/${DEMO.janeDoe}`);
    await card.getByLabel('Key').fill("Mia's");
    await card.getByText(/^1–50 of (5[5-9]|[6-9]\d)$/).waitFor();
    assert.deepEqual([...new Set(await card.locator('tbody tr td:nth-child(3)').allTextContents())], [`/v3/checklists/${DEMO.janeDoe}`]);
    assert.deepEqual(page.errors, []);
    await page.close();
  } finally {
    await fetch(`${s.us}/_emulator/clock`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ now: new Date().toISOString(), frozen: false }) });
  }
});
