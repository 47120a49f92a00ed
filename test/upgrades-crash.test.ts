// The upgrade queue survives a crash (issue 12 "Done when"; docs/upgrades.md "The worker"): a
// real `wfe serve --db FILE` child process queues upgrades with its worker paused, is killed
// with SIGKILL, restarted on the same file, and the worker rebuilds every queued checklist
// exactly once (the 202 committed the queue rows; nothing in memory was needed).
// test:slow: SIGKILLs and restarts a `wfe serve` child process.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEYS, DEMO, PATIENCE_MS } from './helpers/server';
import { freePort, kill, startChild, type Child } from './helpers/crash';

const dir = mkdtempSync(join(tmpdir(), 'wfe-upgrade-crash-'));
const children: Child[] = [];
after(() => {
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function call(base: string, method: string, path: string, body?: unknown) {
  const r = await fetch(base + path, {
    method,
    headers: { 'X-API-KEY': KEYS.admin, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined, text };
}

test('issue 12: SIGKILL of `wfe serve --db FILE` with upgrades queued; after restart the worker rebuilds each exactly once', async () => {
  const db = join(dir, 'upgrades.sqlite');
  const [us, eu] = [await freePort(), await freePort()];
  const first = await startChild(db, us, eu);
  children.push(first);
  // Three more checklists on version 1 of Employee Onboarding, besides Jane Doe.
  const keys: string[] = [DEMO.janeDoe];
  for (const name of ['A', 'B', 'C']) {
    const r = await call(first.us, 'POST', '/v3/checklists', { templateKey: DEMO.onboarding, name: `Crash ${name}`, version: 1, parameters: { 'Employee ID': 'E1234' } });
    assert.equal(r.status, 201, r.text);
    keys.push(r.body.key);
  }
  assert.equal((await call(first.us, 'POST', '/_emulator/upgrades/pause')).status, 200);
  const q = await call(first.us, 'POST', `/v3/templates/${DEMO.onboarding}/upgrades`, { all: true });
  assert.equal(q.status, 202, q.text);
  assert.deepEqual([...q.body.checklistKeys].sort(), [...keys].sort());
  assert.equal((await call(first.us, 'POST', '/_emulator/clock/advance', { seconds: 61 })).status, 200);
  await sleep(300); // due now: an unpaused worker would have run by now
  for (const k of keys) assert.equal((await call(first.us, 'GET', `/v3/checklists/${k}`)).body.version, 1);
  await kill(first);

  const second = await startChild(db, us, eu);
  children.push(second);
  // The rebuilds are due 60 s (the Retry-After) after queueing, on the emulator clock, which a
  // restart sets back to real time: move it on instead of waiting.
  assert.equal((await call(second.us, 'POST', '/_emulator/clock/advance', { seconds: 61 })).status, 200);
  const until = Date.now() + PATIENCE_MS;
  for (;;) {
    const versions = await Promise.all(keys.map(async (k) => (await call(second.us, 'GET', `/v3/checklists/${k}`)).body.version));
    if (versions.every((v) => v === 2)) break;
    if (Date.now() > until) throw new Error(`not rebuilt after restart: ${versions}`);
    await sleep(50);
  }
  const state = (await call(second.us, 'GET', '/_emulator/upgrades')).body;
  assert.equal(state.queued, 0);
  assert.deepEqual(state.jobs.map((j: any) => j.state).sort(), ['done', 'done', 'done', 'done']);
  for (const k of keys) {
    const acts = (await call(second.us, 'GET', `/v3/checklists/${k}/activity?pageSize=100`)).body.items;
    assert.equal(acts.filter((e: any) => e.action === 'checklist.upgraded').length, 1, 'rebuilt exactly once');
  }
  assert.equal((await call(second.us, 'GET', `/v3/templates/${DEMO.onboarding}/upgrades`)).body.total, 0);
  await kill(second);
});
