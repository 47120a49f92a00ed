// The node:test example of README "Use it in CI", as a user's project runs it.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator } from 'wfe';

let emu;
before(async () => {
  emu = await startEmulator();
});
after(() => emu.close());
beforeEach(() => emu.reset());

test('a client sees who it is', async () => {
  const res = await fetch(`${emu.urls.US}/v3/auth/test`, { headers: { 'X-API-KEY': 'acme-admin-key' } });
  assert.equal(res.status, 200);
  assert.equal((await res.json()).teamName, 'Acme Corp');
});

test('a client retries a 503', async () => {
  emu.faults.add({ method: 'GET', path: '/v3/members', status: 503, retryAfter: 1, times: 1 });
  const first = await emu.fetch('/v3/members', { headers: { 'X-API-KEY': 'acme-admin-key' } });
  assert.equal(first.status, 503);
  assert.equal(first.headers.get('retry-after'), '1');
  const second = await emu.fetch('/v3/members', { headers: { 'X-API-KEY': 'acme-admin-key' } });
  assert.equal(second.status, 200);
});
