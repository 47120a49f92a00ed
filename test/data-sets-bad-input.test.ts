// Data Sets, bad input (issue 13 "Bad input"): every write route of both APIs answered
// with odd bodies, never a 500, and a refused write leaves the set as it was.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, type TestServer } from './helpers/server';
import { V2, postForm } from './helpers/data-sets';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const ODD: unknown[] = [
  null, [], 'text', 42, true, {},
  { name: {} }, { name: ['a'] }, { description: 5 }, { fields: [null] }, { fields: [{ name: 'a', type: null }] },
  { values: [1] }, { values: { x: { y: 1 } } }, { values: null }, { mode: 'append', records: [null] }, { mode: 'append', records: [{ values: 'v' }] },
  { filters: [null] }, { filters: [{ fieldId: null, fieldKey: null, operator: 'eq', value: 'x' }] }, { sorts: 'x' }, { sorts: [{ position: 'first' }] },
  { hiddenFields: [null] }, { recordIds: [null], recordKeys: [null] }, { position: '1', type: 'text', name: '' }, { file: 5 }, { file: { data: null } },
  { __proto__: { name: 'x' } }, { constructor: 'x', name: 'x'.repeat(100_000) },
];

function snapshot() {
  const q = (sql: string) => JSON.stringify(s.emu.db.prepare(sql).all());
  return [q('SELECT * FROM data_sets ORDER BY id'), q('SELECT * FROM data_set_fields ORDER BY id'), q('SELECT id, vals FROM data_set_records ORDER BY id'), q('SELECT * FROM data_set_views ORDER BY id')].join('|');
}

test('issue 13 bad input: odd bodies on every write route of both APIs are answered below 500 and change nothing', async () => {
  const made = await s.api(KEYS.admin, 'POST', '/v3/data-sets', { name: 'Target', fields: [{ name: 'A', type: 'text' }, { name: 'B', type: 'number' }] });
  const d = made.body;
  const [fa] = d.fields.map((f: any) => f.key);
  const rec = await s.api(KEYS.admin, 'POST', `/v3/data-sets/${d.key}/records`, { values: { [fa]: 'a' } });
  const view = await s.api(KEYS.admin, 'POST', `/v3/data-sets/${d.key}/views`, { name: 'V' });
  const v3: [string, string][] = [
    ['POST', '/v3/data-sets'], ['POST', '/v3/data-sets/import'], ['PATCH', `/v3/data-sets/${d.key}`],
    ['POST', `/v3/data-sets/${d.key}/fields`], ['PATCH', `/v3/data-sets/${d.key}/fields/${fa}`],
    ['PATCH', `/v3/data-sets/${d.key}/records/${rec.body.key}`],
    ['POST', `/v3/data-sets/${d.key}/records/bulk`], ['DELETE', `/v3/data-sets/${d.key}/records/bulk`],
    ['POST', `/v3/data-sets/${d.key}/views`], ['PATCH', `/v3/data-sets/${d.key}/views/${view.body.key}`], ['POST', `/v3/data-sets/${d.key}/import`],
  ];
  const legacy: [string, string][] = [
    ['POST', '/api/data-sets'], ['PUT', `/api/data-sets/${d.key}`], ['POST', `/api/data-sets/${d.key}/fields`], ['PUT', `/api/data-sets/${d.key}/fields/${fa}`],
    ['PUT', `/api/data-sets/${d.key}/records/${rec.body.key}`], ['POST', `/api/data-sets/${d.key}/records/bulk`],
    ['DELETE', `/api/data-sets/${d.key}/records/bulk`], ['POST', `/api/data-sets/${d.key}/views`], ['PUT', `/api/data-sets/${d.key}/views/${view.body.key}`], ['POST', '/api/data-sets/import'],
  ];
  const before = snapshot();
  for (const body of ODD) {
    const text = JSON.stringify(body) ?? 'null';
    for (const [m, p] of v3) {
      const r = await s.api(KEYS.admin, m, p, text);
      // A PATCH naming nothing it knows is a valid no-op (spec v3 4.1 rule 8): 200, and the snapshot shows nothing changed.
      const noop = m === 'PATCH';
      assert.ok(r.status === 400 || r.status === 404 || (noop && r.status === 200), `${m} ${p} ${text.slice(0, 80)} -> ${r.status} ${r.text.slice(0, 200)}`);
    }
    for (const [m, p] of legacy) {
      const r = await s.api(KEYS.admin, m, p, text, V2);
      assert.ok(r.status === 400 || r.status === 404, `${m} ${p} ${text.slice(0, 80)} -> ${r.status} ${r.text.slice(0, 200)}`);
      assert.equal(typeof r.body.error, 'string');
    }
  }
  assert.equal(snapshot(), before, 'nothing changed');
  // Adding a record: an empty record is valid (empty values are always allowed); odd values are not.
  for (const body of [{ values: [1] }, { values: { x: 1 } }, { values: { [fa]: { y: 1 } } }, { values: 'v' }, [], 'text']) {
    assert.equal((await s.api(KEYS.admin, 'POST', `/v3/data-sets/${d.key}/records`, JSON.stringify(body))).status, 400);
    assert.equal((await s.api(KEYS.admin, 'POST', `/api/data-sets/${d.key}/records`, JSON.stringify(body), V2)).status, 400);
  }
  // Multipart oddities on the legacy import.
  for (const parts of [{}, { file: 'not a file part' }, { mode: 'replace' }, { file: { bytes: Buffer.from([0xc3, 0x28]), fileName: 'bad.csv' } }, { file: { bytes: 'a\n"b', fileName: 'q.csv' } }]) {
    const r = await postForm(s, KEYS.admin, '/api/data-sets/import', parts as never);
    assert.equal(r.status, 400, r.text);
  }
  const broken = await fetch(`${s.us}/api/data-sets/import`, { method: 'POST', headers: { 'X-API-KEY': KEYS.admin, ...V2, 'Content-Type': 'multipart/form-data; boundary=zzz' }, body: '--zzz\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nName\nA' });
  assert.equal(broken.status, 400, await broken.text());
  const noBoundary = await fetch(`${s.us}/api/data-sets/import`, { method: 'POST', headers: { 'X-API-KEY': KEYS.admin, ...V2, 'Content-Type': 'multipart/form-data' }, body: 'x' });
  assert.equal(noBoundary.status, 400, await noBoundary.text());
  assert.equal(snapshot(), before, 'nothing changed');
});
