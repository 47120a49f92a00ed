// The project's own tests in README "A CI job around wfe serve": plain HTTP to WORKFLOW_API_URL.
import { test } from 'node:test';
import assert from 'node:assert/strict';

const url = process.env.WORKFLOW_API_URL;
const key = process.env.WORKFLOW_API_KEY;

test('the service answers who we are', async () => {
  const res = await fetch(`${url}/v3/auth/test`, { headers: { 'X-API-KEY': key } });
  assert.equal(res.status, 200);
  assert.equal((await res.json()).teamName, 'Acme Corp');
});

test('reset between tests puts the fixture back', async () => {
  const res = await fetch(`${url}/_emulator/reset`, { method: 'POST' });
  assert.equal(res.status, 200);
});
