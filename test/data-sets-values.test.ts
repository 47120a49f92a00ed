// The one Data Set value validator (legacy spec 2 field types; docs/data-sets.md), table-driven:
// what each type accepts, what it stores, and that the stored value's text re-checks to itself
// (the CSV round trip and type changes rely on it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellText, checkValue, recordBytes, type FieldType } from '../src/domain/datasets/field-types';

const OK: [FieldType, unknown, unknown][] = [
  ['text', 'Berlin', 'Berlin'], ['text', '  spaced  ', '  spaced  '], ['text', 42, '42'], ['text', false, 'false'], ['text', 'line\nbreak', 'line\nbreak'],
  ['number', 42, 42], ['number', '42', 42], ['number', ' -3.5 ', -3.5], ['number', '1e3', 1000], ['number', '.5', 0.5], ['number', 0, 0],
  ['date', '2024-02-29', '2024-02-29'], ['date', '2026-03-02T09:00:00Z', '2026-03-02T09:00:00Z'], ['date', '2026-03-02T10:00+01:00', '2026-03-02T10:00+01:00'],
  ['email', 'a.b+c@example.co.uk', 'a.b+c@example.co.uk'], ['email', ' x@y.z ', 'x@y.z'],
  ['url', 'https://example.com/a?b=c#d', 'https://example.com/a?b=c#d'], ['url', 'http://localhost:8080', 'http://localhost:8080'],
  ['boolean', true, true], ['boolean', 'FALSE', false], ['boolean', ' true ', true],
];
const BAD: [FieldType, unknown][] = [
  ['text', {}], ['text', ['a']], ['text', Infinity],
  ['number', 'NaN'], ['number', '1,5'], ['number', '12abc'], ['number', Infinity], ['number', true], ['number', '0x10'],
  ['date', '2023-02-29'], ['date', '2026-13-01'], ['date', '02/03/2026'], ['date', '2026-03-02T25:00'], ['date', 20260302],
  ['email', 'a@b'], ['email', 'a b@c.d'], ['email', '@c.d'], ['email', 5],
  ['url', 'example.com'], ['url', 'ftp://example.com'], ['url', 'javascript:alert(1)'], ['url', 'https://exa mple.com'],
  ['boolean', 'yes'], ['boolean', 1], ['boolean', '0'],
];

test('legacy 2 field types: each accepts its values and stores them typed', () => {
  for (const [type, raw, stored] of OK) {
    const c = checkValue(type, raw);
    assert.deepEqual(c, { ok: true, value: stored }, `${type} ${JSON.stringify(raw)}`);
    assert.deepEqual(checkValue(type, cellText(stored)), { ok: true, value: stored }, `${type}: the stored value's text re-checks to itself`);
  }
});

test('legacy 2 field types: invalid values are refused with a reason', () => {
  for (const [type, raw] of BAD) {
    const c = checkValue(type, raw);
    assert.equal(c.ok, false, `${type} ${JSON.stringify(raw)}`);
    if (!c.ok) assert.ok(c.reason.length > 0);
  }
});

test('legacy 4.8 empty values are always allowed, for every type, and never stored', () => {
  for (const type of ['text', 'number', 'date', 'email', 'url', 'boolean'] as FieldType[]) {
    for (const empty of [undefined, null, '', '   ']) assert.deepEqual(checkValue(type, empty), { ok: true, value: undefined });
  }
});

test('legacy 8: record size counts UTF-8 bytes of every cell text', () => {
  assert.equal(recordBytes({ a: 'abc', b: 12, c: true, d: 'é' }), 3 + 2 + 4 + 2);
});
