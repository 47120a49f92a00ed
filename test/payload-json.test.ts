// The exact JSON writer (spec v3 6 rules 3-4; docs/webhooks.md "Bytes"), table-driven.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeString, offsetTime, writeCompact, writeIndented } from '../src/webhooks/json';
import { dateValue, fieldName, normalise } from '../src/webhooks/payloads/fields';

test('6 rule 4: non-ASCII and & < > " \' are \\u escapes (lowercase hex); controls and backslash short escapes', () => {
  const rows: [string, string][] = [
    ['plain', '"plain"'],
    ['a & b', '"a \\u0026 b"'],
    ['<p>', '"\\u003cp\\u003e"'],
    ['say "hi"', '"say \\u0022hi\\u0022"'],
    ["it's", '"it\\u0027s"'],
    ['café', '"caf\\u00e9"'],
    ['Ω', '"\\u03a9"'],
    ['😀', '"\\ud83d\\ude00"'],
    ['\u2028', '"\\u2028"'],
    ['a\nb\tc\rd\be\ff', '"a\\nb\\tc\\rd\\be\\ff"'],
    ['back\\slash', '"back\\\\slash"'],
    ['\u0001\u001f\u007f', '"\\u0001\\u001f\\u007f"'],
    ['/', '"/"'],
  ];
  for (const [input, want] of rows) {
    assert.equal(escapeString(input), want, JSON.stringify(input));
    assert.equal(JSON.parse(want), input);
  }
});

test('6 rule 3: family A is indented with two spaces, nulls kept, empty [] and {}; family B is one line', () => {
  const v = { a: 1, b: null, c: [], d: {}, e: [{ f: true }, 'x'], g: { h: -1.5 } };
  assert.equal(
    writeIndented(v),
    '{\n  "a": 1,\n  "b": null,\n  "c": [],\n  "d": {},\n  "e": [\n    {\n      "f": true\n    },\n    "x"\n  ],\n  "g": {\n    "h": -1.5\n  }\n}',
  );
  assert.equal(writeCompact(v), '{"a":1,"b":null,"c":[],"d":{},"e":[{"f":true},"x"],"g":{"h":-1.5}}');
});

test('6 rule 3: family A timestamps end +00:00, fraction only when not zero', () => {
  assert.equal(offsetTime(Date.parse('2025-03-03T09:15:30.000Z')), '2025-03-03T09:15:30+00:00');
  assert.equal(offsetTime(Date.parse('2025-03-03T09:15:30.120Z')), '2025-03-03T09:15:30.12+00:00');
  assert.equal(offsetTime(Date.parse('2025-03-03T09:15:30.007Z'), false), '2025-03-03T09:15:30.007');
  assert.equal(offsetTime(null), null);
});

test('6.2 names: type prefix + lower-cased label, spaces as underscores, punctuation kept; unlabelled controls', () => {
  assert.equal(normalise('Start Date (UTC)'), 'start_date_(utc)');
  const rows: [string, string | undefined, string][] = [
    ['ShortText', 'Employee Name', 'short_text_employee_name'],
    ['LongText', 'Notes', 'long_text_notes'],
    ['EmailInput', 'Work Email', 'email_input_work_email'],
    ['Website', 'Home Page', 'website_home_page'],
    ['Date', 'Start', 'date_start'],
    ['DropDown', 'Size', 'drop_down_size'],
    ['MultiChoice', 'Equipment', 'multi_choice_drop_down_equipment'],
    ['SubTasks', 'Accounts', 'sub_tasks_accounts'],
    ['FileUpload', 'Contract', 'file_contract'],
    ['File', 'Handbook', 'file_upload_handbook'],
    ['Table', 'Access Log', 'table_access_log'],
    ['ShortText', undefined, 'short_text_unlabelled_shorttext_content_at_position_3'],
    ['ShortText', '  ', 'short_text_unlabelled_shorttext_content_at_position_3'],
  ];
  for (const [type, label, want] of rows) assert.equal(fieldName({ type, label }, 3), want);
});

test('6.2 dates: with offset in the task payload, without in the checklist payload', () => {
  assert.equal(dateValue('2025-04-01', 'task'), '2025-04-01T00:00:00+00:00');
  assert.equal(dateValue('2025-04-01', 'checklist'), '2025-04-01T00:00:00');
  assert.equal(dateValue('2025-04-01T08:30:00Z', 'task'), '2025-04-01T08:30:00+00:00');
  assert.equal(dateValue('2025-04-01T08:30:00Z', 'checklist'), '2025-04-01T08:30:00');
  assert.equal(dateValue('14:30', 'task'), '14:30:00+00:00');
  assert.equal(dateValue('', 'task'), null);
  assert.equal(dateValue(undefined, 'task'), null);
});
