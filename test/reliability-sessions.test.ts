// Issue 37 "Console sessions cannot be flooded away" (docs/reliability.md 12): 12,000 cookieless
// page loads (HEAD /app/x, as image tags on another site's page would send them) each make a
// new, unused session; the store evicts unused sessions before used ones, so an earlier
// console session keeps working.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { KEYS, startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const cookieOf = (res: Response) => /wfe_console=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
const consoleRead = (cookie: string) => s.api(KEYS.member, 'GET', '/app/_/v3/auth/test', undefined, { Cookie: `wfe_console=${cookie}` });

test('a console session in use survives 12,000 cookieless HEAD /app/x (each making a session); a session never used is what goes', async () => {
  const page = await fetch(`${s.us}/app`);
  await page.text();
  const cookie = cookieOf(page);
  assert.ok(cookie, 'the page shell sets the console cookie');
  assert.equal((await consoleRead(cookie)).status, 200, 'the session works');
  const idle = cookieOf(await fetch(`${s.us}/app`, { method: 'HEAD' }));
  assert.ok(idle);

  let made = 0;
  const flood = async () => {
    while (made < 12_000) {
      made++;
      const r = await fetch(`${s.us}/app/x`, { method: 'HEAD' });
      assert.equal(r.status, 200);
      assert.ok(cookieOf(r), 'each cookieless load makes a session');
    }
  };
  await Promise.all(Array.from({ length: 16 }, flood));

  const after = await consoleRead(cookie);
  assert.equal(after.status, 200, after.text);
  const gone = await consoleRead(idle);
  assert.equal(gone.status, 401, 'the session made and never used before the flood was evicted first');
  assert.equal(gone.body.error.code, 'CONSOLE_SESSION_REQUIRED');
});
