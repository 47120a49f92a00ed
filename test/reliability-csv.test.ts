// Issue 37 "Every bounded input is bounded while it is read" (docs/reliability.md 9): a CSV of
// 2.4 million one-cell rows (under the 5 MB cap) on each CSV route is refused at once, and a
// request sent alongside is answered within 100 ms. Also a row of too many columns, and the
// limits themselves (10,000 records accepted, 10,001 refused).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { KEYS, startTestServer, type TestServer } from './helpers/server';
import { OFFICES, V2, postForm, recordCount } from './helpers/data-sets';

let s: TestServer;
before(async () => {
  s = await startTestServer();
  // Warm: the first request of a process compiles the route's code; the bound is about the CSV.
  for (let i = 0; i < 3; i++) {
    await s.api(KEYS.admin, 'POST', '/v3/data-sets/import', { file: { name: 'w.csv', data: Buffer.from('Name\nx\n'.repeat(1)).toString('base64') }, name: `Warm ${i}` });
    await s.api(KEYS.admin, 'GET', '/v3/auth/test');
  }
});
after(() => s.close());

/** The file: "A\n" + "x\n" x 2,400,000 (4.8 MB). */
const HUGE = Buffer.from('Name\n' + 'x\n'.repeat(2_400_000));
const WIDE = Buffer.from('Name\n' + 'x,'.repeat(2_000_000) + 'x\n');
const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64');

/** Sends the import and, alongside, GET /v3/auth/test; both durations. */
async function once(send: () => Promise<{ status: number; body: any; text: string }>) {
  const t0 = performance.now();
  const importing = send().then((r) => ({ r, ms: performance.now() - t0 }));
  // Sent once the import request is on its way (its body is being read or parsed).
  await new Promise((r) => setTimeout(r, 5));
  const t1 = performance.now();
  const probe = await s.api(KEYS.admin, 'GET', '/v3/auth/test');
  const probeMs = performance.now() - t1;
  assert.equal(probe.status, 200);
  const { r, ms } = await importing;
  return { r, ms, probeMs };
}

/**
 * The bounds on a shared machine: up to three tries, the first within both bounds counts. A
 * server that freezes (as before: 23 s, the parallel request 21 s) misses them every time; a
 * machine with many runnable processes per core can miss them once.
 */
async function alongside(t: { diagnostic(m: string): void }, send: () => Promise<{ status: number; body: any; text: string }>) {
  let last: Awaited<ReturnType<typeof once>> | undefined;
  for (let i = 0; i < 3; i++) {
    last = await once(send);
    t.diagnostic(`try ${i + 1}: refused in ${last.ms.toFixed(0)} ms; parallel request ${last.probeMs.toFixed(0)} ms`);
    if (last.ms < 1000 && last.probeMs < 100) break;
  }
  return last!;
}

const v3Routes: [string, string][] = [
  ['POST /v3/data-sets/import (create)', '/v3/data-sets/import'],
  ['POST /v3/data-sets/{key}/import (replace)', `/v3/data-sets/${OFFICES}/import`],
];

for (const [name, path] of v3Routes) {
  test(`legacy spec 8 (at most 10,000 records) on ${name}: 2.4 million rows refused 400 VALIDATION_ERROR field file.data within 1 s; a parallel request within 100 ms`, async (t) => {
    const before = recordCount(s, OFFICES);
    const named = path === '/v3/data-sets/import' ? { name: 'Huge' } : {};
    const body = JSON.stringify({ file: { name: 'huge.csv', data: b64(HUGE) }, ...named });
    const { r, ms, probeMs } = await alongside(t, () => s.api(KEYS.admin, 'POST', path, body));
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.error.code, 'VALIDATION_ERROR');
    assert.equal(r.body.error.field, 'file.data');
    assert.match(r.body.error.message, /more than 10,000 rows/);
    assert.ok(ms < 1000, `answered in ${ms.toFixed(0)} ms`);
    assert.ok(probeMs < 100, `parallel request answered in ${probeMs.toFixed(0)} ms`);
    assert.equal(recordCount(s, OFFICES), before, 'nothing changed');
    const wide = await s.api(KEYS.admin, 'POST', path, { file: { name: 'wide.csv', data: b64(WIDE) }, ...named });
    assert.equal(wide.status, 400, wide.text);
    assert.equal(wide.body.error.field, 'file.data');
    assert.match(wide.body.error.message, /row 2 has more than 50 columns/);
  });
}

const legacyForms: [string, Record<string, string>][] = [
  ['create', {}],
  ['replace', { mode: 'replace', dataSetId: OFFICES }],
];

for (const [mode, fields] of legacyForms) {
  test(`legacy 4.8 CSV import ${mode} (multipart): 2.4 million rows refused 400 {error} within 1 s; a parallel request within 100 ms`, async (t) => {
    const before = recordCount(s, OFFICES);
    const { r, ms, probeMs } = await alongside(t, () => postForm(s, KEYS.admin, '/api/data-sets/import', { ...fields, file: { bytes: HUGE, fileName: 'huge.csv' } }));
    assert.equal(r.status, 400, r.text);
    assert.match(r.body.error, /more than 10,000 rows/);
    assert.ok(ms < 1000, `answered in ${ms.toFixed(0)} ms`);
    assert.ok(probeMs < 100, `parallel request answered in ${probeMs.toFixed(0)} ms`);
    assert.equal(recordCount(s, OFFICES), before, 'nothing changed');
    const header = await postForm(s, KEYS.admin, '/api/data-sets/import', { ...fields, file: { bytes: Buffer.from('a,'.repeat(1_000_000) + 'b\nx\n'), fileName: 'wide.csv' } }, V2);
    assert.equal(header.status, 400, header.text);
    assert.match(header.body.error, /has more than 50 columns/);
  });
}

test('legacy spec 8: exactly 10,000 records are imported; 10,001 refused (blank lines are not records; a quoted line end stays in its cell)', async () => {
  const ok = await s.api(KEYS.admin, 'POST', '/v3/data-sets/import', { name: 'Ten thousand', file: { data: b64('Name,Note\n\n' + 'x,"a\nb"\r\n'.repeat(10_000) + '\n\n') } });
  assert.equal(ok.status, 201, ok.text);
  assert.equal(ok.body.dataSet.recordCount ?? recordCount(s, ok.body.dataSet.key), 10_000);
  const over = await s.api(KEYS.admin, 'POST', '/v3/data-sets/import', { name: 'Too many', file: { data: b64('Name\n' + 'x\n'.repeat(10_001)) } });
  assert.equal(over.status, 400, over.text);
  assert.equal(over.body.error.field, 'file.data');
  assert.match(over.body.error.message, /more than 10,000 rows/);
  const fifty = await s.api(KEYS.admin, 'POST', '/v3/data-sets/import', { name: 'Fifty', file: { data: b64(Array.from({ length: 50 }, (_, i) => `c${i}`).join(',') + '\n') } });
  assert.equal(fifty.status, 201, fifty.text);
  const fiftyOne = await s.api(KEYS.admin, 'POST', '/v3/data-sets/import', { name: 'Fifty-one', file: { data: b64(Array.from({ length: 51 }, (_, i) => `c${i}`).join(',') + '\n') } });
  assert.equal(fiftyOne.status, 400, fiftyOne.text);
  assert.match(fiftyOne.body.error.message, /more than 50 columns/);
});
