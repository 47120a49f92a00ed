// Table-driven tests of the pure helpers the request path and the domain lean on:
// query coercion (spec v3 4.4 "only true switches an option on"), HTML to text
// (2.4 comment text), condition operators, and zone names (4.1 rule 7).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { coerceString } from '../src/contract/coerce';
import { htmlToText, textToHtml, decodeEntities } from '../src/domain/tasks/html-text';
import { holds } from '../src/domain/tasks/evaluate';
import { resolveZone, zoneFor } from '../src/domain/timezone';

const shape = {
  flag: z.boolean().optional(),
  size: z.number().int().optional(),
  id: z.number().int().min(1),
  text: z.string().optional(),
};

test('4.4 query coercion: only `true` in any case switches a boolean on; integers only when written as integers', () => {
  const rows: [keyof typeof shape, string, unknown][] = [
    ['flag', 'true', true],
    ['flag', 'TRUE', true],
    ['flag', ' True ', true],
    ['flag', 'false', false],
    ['flag', '1', false],
    ['flag', 'yes', false],
    ['flag', '', false],
    ['size', '50', 50],
    ['size', ' 7 ', 7],
    ['size', '-3', -3],
    ['size', '1.5', '1.5'],
    ['size', '1e3', '1e3'],
    ['size', 'abc', 'abc'],
    ['size', '', ''],
    ['id', '103', 103],
    ['text', '103', '103'],
    ['text', 'true', 'true'],
  ];
  for (const [name, raw, want] of rows) assert.deepEqual(coerceString(shape, name, raw), want, `${name}=${JSON.stringify(raw)}`);
});

test('2.4 comment text: markup removed, paragraphs by a blank line, breaks by newline, mentions by the name written', () => {
  const rows: [string, string, string[]][] = [
    ['<p>Hello</p><p>World</p>', 'Hello\n\nWorld', []],
    ['Line one<br>Line two', 'Line one\nLine two', []],
    ['<ul><li>a</li><li>b</li></ul>', 'a\nb', []],
    ['<b>bold</b> &amp; <i>it&#39;s</i>', "bold & it's", []],
    ['<script>alert(1)</script>safe', 'safe', []],
    ['<!-- hidden -->shown', 'shown', []],
    ['Hi <span data-mention-type="TeamMember" data-mention-id="103">@Mia Member</span>!', 'Hi Mia Member!', ['TeamMember:103:Mia Member']],
    ['', '', []],
  ];
  for (const [html, text, mentions] of rows) {
    const out = htmlToText(html);
    assert.equal(out.text, text, html);
    assert.deepEqual(out.mentions.map((m) => `${m.type}:${m.id}:${m.name}`), mentions, html);
  }
  assert.equal(decodeEntities('&lt;b&gt; &#x41; &#66; &bogus;'), '<b> A B &bogus;');
  assert.equal(htmlToText(textToHtml('a <b> & "c"\nnext')).text, 'a <b> & "c"\nnext');
});

test('conditions: each operator, names forgiving of case, spaces, hyphens and underscores; unknown never holds', () => {
  const rows: [string, unknown, unknown, boolean][] = [
    ['is', 'Contractor', 'contractor', true],
    ['Is', 'Employee', 'Contractor', false],
    ['is', ['a', 'b'], 'b', true],
    ['isNot', 'Employee', 'Contractor', true],
    ['is_not', 'Contractor', 'Contractor', false],
    ['contains', 'Hello world', 'WORLD', true],
    ['does-not-contain', 'Hello world', 'moon', true],
    ['startsWith', 'Hello', 'he', true],
    ['endsWith', 'Hello', 'LO', true],
    ['isEmpty', '', undefined, true],
    ['isEmpty', undefined, undefined, true],
    ['is empty', 'x', undefined, false],
    ['isNotEmpty', 'x', undefined, true],
    ['greaterThan', '10', '9', true],
    ['greaterThan', '9', '10', false],
    ['lessThan', '2025-01-01', '2025-02-01', true],
    ['gt', 5, 4, true],
    ['sometimes', 'x', 'x', false],
  ];
  for (const [op, answer, expected, want] of rows) assert.equal(holds(op, answer, expected), want, `${op}(${JSON.stringify(answer)}, ${JSON.stringify(expected)})`);
});

test('4.1 rule 7 zone names: IANA and Windows names resolve; anything else is 400 on X-SVC-Timezone', () => {
  const rows: [string, string | null][] = [
    ['Europe/Berlin', 'Europe/Berlin'],
    ['America/New_York', 'America/New_York'],
    ['UTC', 'UTC'],
    ['W. Europe Standard Time', 'Europe/Berlin'],
    ['w. europe standard time', 'Europe/Berlin'],
    ['Eastern Standard Time', 'America/New_York'],
    ['Mars/Olympus', null],
    ['', null],
  ];
  for (const [name, want] of rows) assert.equal(resolveZone(name), want, name);
  assert.equal(zoneFor(undefined, 'Europe/Berlin'), 'Europe/Berlin');
  assert.equal(zoneFor(null, null), 'UTC');
  assert.equal(zoneFor('Pacific Standard Time', 'Europe/Berlin'), 'America/Los_Angeles');
  assert.throws(() => zoneFor('Nowhere/Special', null), (e: { status: number; extras: { field: string } }) => e.status === 400 && e.extras.field === 'X-SVC-Timezone');
  assert.throws(() => zoneFor('  ', null), (e: { status: number }) => e.status === 400);
});
