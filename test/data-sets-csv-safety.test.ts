// CSV exports safe to open and strictly readable (docs/data-sets.md "CSV import and export";
// docs/security.md): text cells starting with a formula character carry a guard (OWASP CSV
// injection) on v3 and legacy, numbers, dates and booleans are never changed, our own import
// gives every value back byte for byte, every cell with CR or LF is quoted so a strict
// RFC 4180 reader reads one row per record, and mixed line endings in an import are normalised.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, type TestServer } from './helpers/server';
import { V2, getBytes, postForm } from './helpers/data-sets';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const A = (method: string, path: string, body?: unknown) => s.api(KEYS.admin, method, `/v3/data-sets${path}`, body);
const b64 = (x: string | Buffer) => Buffer.from(x).toString('base64');

/**
 * A strict RFC 4180 reader: records end at CRLF only; a field is either quoted (quotes inside
 * doubled) or holds no quote, comma, CR or LF. Anything else throws.
 */
function strictRfc4180(text: string): string[][] {
  const rows: string[][] = [];
  let i = 0;
  let row: string[] = [];
  for (;;) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r') {
        if (text[i] === '"' || text[i] === '\n') throw new Error(`bare ${JSON.stringify(text[i])} in an unquoted field at ${i}`);
        field += text[i++];
      }
    }
    row.push(field);
    if (i >= text.length) throw new Error('the last record has no CRLF');
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text[i] === '\r' && text[i + 1] === '\n') {
      rows.push(row);
      row = [];
      i += 2;
      if (i === text.length) return rows;
      continue;
    }
    throw new Error(`bare CR at ${i}`);
  }
}

const DANGEROUS = ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', '=HYPERLINK("http://evil.example","x")'];
/** Values that look like the guard itself: the guard is escaped so they come back as they were. */
const GUARD_LIKE = ["'=1+1", "''", "'", "'plain", "'-"];
const AWKWARD = ['line\nfeed', 'carriage\rreturn', 'both\r\nends', 'say "hi"', 'a, b', 'ends\n', 'ends\r'];

async function setWithValues() {
  const made = await A('POST', '', { name: `Safety ${Math.random().toString(36).slice(2, 8)}`, fields: [
    { name: 'Text', type: 'text' }, { name: 'Amount', type: 'number' }, { name: 'When', type: 'date' }, { name: 'Done', type: 'boolean' },
  ] });
  assert.equal(made.status, 201, made.text);
  const ds = made.body;
  const [text, amount, when, done] = ds.fields.map((f: any) => f.key);
  const values = [...DANGEROUS, ...GUARD_LIKE, ...AWKWARD, 'plain'];
  const amounts = [-5, 1.5, -0.25, 7];
  for (const [i, v] of values.entries()) {
    const r = await A('POST', `/${ds.key}/records`, { values: { [text]: v, [amount]: amounts[i % amounts.length], [when]: '2026-01-02', [done]: i % 2 === 0 } });
    assert.equal(r.status, 201, r.text);
  }
  return { ds, keys: { text, amount, when, done }, values };
}

const dataRows = (bytes: Buffer) => {
  assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  return strictRfc4180(bytes.subarray(3).toString('utf8'));
};

for (const api of ['v3', 'legacy'] as const) {
  test(`${api} CSV export: no text cell reaches the file as a formula (OWASP CSV injection); -5, dates and booleans unchanged; one row per record under a strict RFC 4180 reader (legacy 4.8 "CSV export")`, async () => {
    const { ds, values } = await setWithValues();
    const ex = api === 'v3' ? await getBytes(s, KEYS.admin, `/v3/data-sets/${ds.key}/export`) : await getBytes(s, KEYS.admin, `/api/data-sets/${ds.key}/export`, V2);
    assert.equal(ex.status, 200);
    const rows = dataRows(ex.bytes);
    assert.deepEqual(rows[0], ['Text', 'Amount', 'When', 'Done']);
    assert.equal(rows.length, values.length + 1, 'one row per record');
    const byText = new Map(rows.slice(1).map((r) => [r[0], r]));
    for (const r of rows.slice(1)) {
      assert.doesNotMatch(r[0], /^[=+\-@\t\r]/, `text cell ${JSON.stringify(r[0])} would run as a formula`);
      assert.match(r[1], /^-?\d+(\.\d+)?$/, 'numbers as numbers');
      assert.equal(r[2], '2026-01-02');
      assert.match(r[3], /^(true|false)$/);
    }
    for (const v of DANGEROUS) assert.ok(byText.has(`'${v}`), `${JSON.stringify(v)} exported with the guard`);
    for (const v of AWKWARD) assert.ok(byText.has(v), `${JSON.stringify(v)} exported as it is`);
    assert.ok(rows.slice(1).some((r) => r[1] === '-5'), '-5 stays -5');
  });
}

test('CSV export then our own import (v3 and legacy, create and replace): every value back byte for byte, guard included', async () => {
  const { ds, keys, values } = await setWithValues();
  const original = (await A('GET', `/${ds.key}/records?limit=100`)).body.items.map((r: any) => r.values[keys.text]).sort();
  assert.deepEqual([...original].sort(), [...values].sort());
  const ex = await getBytes(s, KEYS.admin, `/v3/data-sets/${ds.key}/export`);
  // v3 replace into the same set.
  const rep = await A('POST', `/${ds.key}/import`, { file: { data: b64(ex.bytes) } });
  assert.equal(rep.status, 200, rep.text);
  const replaced = (await A('GET', `/${ds.key}/records?limit=100`)).body.items;
  assert.deepEqual(replaced.map((r: any) => r.values[keys.text]).sort(), [...values].sort());
  assert.ok(replaced.some((r: any) => r.values[keys.amount] === -5));
  // Legacy create from the same bytes.
  const made = await postForm(s, KEYS.admin, '/api/data-sets/import', { file: { bytes: ex.bytes, fileName: 'safety.csv' } });
  assert.equal(made.status, 200, made.text);
  const textField = made.body.dataSet.fields.find((f: any) => f.name === 'Text');
  assert.equal(textField.type, 'text');
  const recs = await s.api(KEYS.admin, 'GET', `/api/data-sets/${made.body.dataSet.id}/records?pageSize=200`, undefined, V2);
  assert.deepEqual(recs.body.data.map((r: any) => r.values[textField.id] ?? r.values[textField.key] ?? r.values.Text).sort(), [...values].sort());
  // And exporting the copy gives the same bytes.
  const again = await getBytes(s, KEYS.admin, `/api/data-sets/${made.body.dataSet.id}/export`, V2);
  assert.deepEqual(again.bytes.subarray(3).toString('utf8').split('\r\n')[0], ex.bytes.subarray(3).toString('utf8').split('\r\n')[0]);
});

test('CSV import: mixed line endings (LF first, then CRLF, then CR) are normalised: no cell keeps a stray CR; quoted line ends are kept (docs/data-sets.md)', async () => {
  const csv = 'Name,Note\nx,one\r\ny,two\rz,"a\r\nb"\r\nw,"c\rd"\n';
  const made = await A('POST', '/import', { name: `Mixed ${Date.now()}`, file: { data: b64(csv) } });
  assert.equal(made.status, 201, made.text);
  const [name, note] = made.body.dataSet.fields.map((f: any) => f.key);
  const items = (await A('GET', `/${made.body.dataSet.key}/records?limit=100`)).body.items.map((r: any) => [r.values[name], r.values[note]]);
  assert.deepEqual(items.sort(), [['w', 'c\rd'], ['x', 'one'], ['y', 'two'], ['z', 'a\r\nb']]);
  // CRLF first, LF later: the same rule.
  const crlfFirst = await A('POST', '/import', { name: `Mixed2 ${Date.now()}`, file: { data: b64('Name\r\nx\ny\r\n') } });
  assert.equal(crlfFirst.status, 201, crlfFirst.text);
  const f2 = crlfFirst.body.dataSet.fields[0].key;
  assert.deepEqual((await A('GET', `/${crlfFirst.body.dataSet.key}/records?limit=100`)).body.items.map((r: any) => r.values[f2]).sort(), ['x', 'y']);
});
