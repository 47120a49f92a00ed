// Template validation (spec v3 2.5 validation result; docs/validation-codes.md):
// every violation code with its path, reading order, and bad input that must
// never be a 500.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, callTool, KEYS, DEMO, type TestServer } from './helpers/server';
import { codesAt } from './helpers/templates';
import { VALIDATION_CODES } from '../src/domain/template-format/codes';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

async function validate(doc: unknown, forTemplate?: string): Promise<any> {
  const r = await s.api(KEYS.admin, 'POST', `/v3/templates/validate${forTemplate ? `?forTemplate=${forTemplate}` : ''}`, doc === undefined ? undefined : JSON.stringify(doc));
  assert.equal(r.status, 200, r.text);
  return r.body;
}

const task = (extra: Record<string, unknown> = {}) => ({ ref: 't1', name: 'Task one', ...extra });
const doc = (tasks: unknown[], extra: Record<string, unknown> = {}) => ({ name: 'Doc', tasks, ...extra });
const dd = { type: 'DropDown', ref: 'kind', label: 'Kind', options: [{ text: 'A' }, { text: 'B' }] };

/** [code, document, expected path, severity] — one case per code of docs/validation-codes.md. */
const CASES: [string, unknown, string, 'error' | 'warning', string?][] = [
  ['invalid_type', doc([task({ isStop: 'yes' })]), '$.tasks[0].isStop', 'error'],
  ['required', doc([{ ref: 'a' }]), '$.tasks[0].name', 'error'],
  ['invalid_value', doc([task({ fields: [{ type: 'Date', mode: 'week' }] })]), '$.tasks[0].fields[0].mode', 'error'],
  ['unknown_property', doc([task({ fields: [{ type: 'ShortText', required: true }] })]), '$.tasks[0].fields[0].required', 'error'],
  ['unknown_content_type', doc([task({ fields: [{ type: 'Checkbox' }] })]), '$.tasks[0].fields[0].type', 'error'],
  ['too_large', doc([task({ description: 'x'.repeat(20_000) })]), '$.tasks[0].description', 'error'],
  ['duplicate_ref', doc([task(), task({ name: 'Again' })]), '$.tasks[1].ref', 'error'],
  ['unknown_ref', doc([task()], { conditions: [{ action: 'show', targets: ['nothing'], when: [{ field: 'nothing_either', operator: 'isEmpty' }] }] }), '$.conditions[0].targets[0]', 'error'],
  ['wrong_ref_kind', doc([task({ fields: [{ ref: 'f', type: 'ShortText' }], dueDate: { relativeTo: 'dateField', field: 'f' } })]), '$.tasks[0].dueDate.field', 'error'],
  ['assignee_not_found', doc([task({ assignees: [{ name: 'Nobody Here' }] })]), '$.tasks[0].assignees[0].name', 'error'],
  ['assignee_ambiguous', doc([task({ assignees: [{ name: 'Alex Kim' }] })]), '$.tasks[0].assignees[0].name', 'error'],
  ['invalid_regex', doc([task({ fields: [{ type: 'ShortText', regex: '/^(a$/' }] })]), '$.tasks[0].fields[0].regex', 'error'],
  ['not_answerable', doc([task({ fields: [{ type: 'Text', content: 'hi', isRequired: true }] })]), '$.tasks[0].fields[0].isRequired', 'error'],
  ['choices_required', doc([task({ fields: [{ type: 'DropDown', label: 'x' }] })]), '$.tasks[0].fields[0].options', 'error'],
  ['choices_conflict', doc([task({ fields: [{ type: 'DropDown', options: [{ text: 'a' }], dataSet: { name: 'Offices' } }] })]), '$.tasks[0].fields[0].dataSet', 'error'],
  ['duplicate_option', doc([task({ fields: [{ type: 'MultiChoice', options: [{ text: 'Same' }, { text: 'same' }] }] })]), '$.tasks[0].fields[0].options[1].text', 'error'],
  ['duplicate_parameter', doc([task({ fields: [{ ref: 'f', type: 'ShortText' }] })], { parameters: [{ name: 'p', field: 'f' }, { name: 'p', field: 'f' }] }), '$.parameters[1].name', 'error'],
  ['heading_property', doc([task({ isHeading: true, assignees: [{ name: 'Ada Admin' }] })]), '$.tasks[0].assignees', 'error'],
  ['invalid_operator', doc([task({ fields: [dd] }), { ref: 't2', name: 'Two' }], { conditions: [{ action: 'show', targets: ['t2'], when: [{ field: 'kind', operator: 'startsWith', value: 'A' }] }] }), '$.conditions[0].when[0].operator', 'error'],
  ['data_set_not_found', doc([task({ fields: [{ type: 'DropDown', dataSet: { name: 'Planets' } }] })]), '$.tasks[0].fields[0].dataSet.name', 'error'],
  ['data_set_view_not_found', doc([task({ fields: [{ type: 'DropDown', dataSet: { name: 'Offices', view: 'Closed offices' } }] })]), '$.tasks[0].fields[0].dataSet.view', 'error'],
  ['data_set_field_not_found', doc([task({ fields: [{ type: 'DropDown', dataSet: { name: 'Offices', displayField: 'Colour' } }] })]), '$.tasks[0].fields[0].dataSet.displayField', 'error'],
  ['template_not_found', doc([task({ fields: [{ type: 'LinkedChecklist', template: 'No Such Template' }] })]), '$.tasks[0].fields[0].template', 'error'],
  ['ids_not_allowed', doc([task({ id: '21000000-0000-4000-8000-000000000201' })]), '$.tasks[0].id', 'error'],
  ['never_shown', doc([task({ fields: [dd] }), { ref: 't2', name: 'Two' }], { conditions: [{ action: 'show', targets: ['t2'], when: [{ field: 'kind', operator: 'is', value: 'C' }] }] }), '$.conditions[0].when[0].value', 'warning'],
  ['never_matches', doc([task({ fields: [dd] }), { ref: 't2', name: 'Two' }], { conditions: [{ action: 'hide', targets: ['t2'], when: [{ field: 'kind', operator: 'is', value: 'C' }] }] }), '$.conditions[0].when[0].value', 'warning'],
  ['never_restored', doc([task({ fields: [dd] })], { conditions: [{ action: 'hide', targets: ['t1'], when: [{ field: 'kind', operator: 'is', value: 'A' }] }] }), '$.conditions[0].when[0].field', 'warning'],
  ['never_sent', doc([task({ isHeading: true })], { notifications: [{ on: 'taskCompleted', task: 't1', to: [{ name: 'Ada Admin' }], subject: 'Done' }] }), '$.notifications[0]', 'warning'],
  [
    'circular_reference',
    doc(
      [
        { ref: 'a', name: 'A', fields: [{ ref: 'fa', type: 'ShortText' }] },
        { ref: 'b', name: 'B', fields: [{ ref: 'fb', type: 'ShortText' }] },
      ],
      {
        conditions: [
          { action: 'show', targets: ['a'], when: [{ field: 'fb', operator: 'is', value: 'x' }] },
          { action: 'show', targets: ['b'], when: [{ field: 'fa', operator: 'is', value: 'y' }] },
        ],
      },
    ),
    '$.conditions[0]',
    'warning',
  ],
  ['regex_message_unused', doc([task({ fields: [{ type: 'ShortText', regexMessage: 'no regex' }] })]), '$.tasks[0].fields[0].regexMessage', 'warning'],
];

for (const [code, d, path, severity] of CASES) {
  test(`2.5 validation: ${code} at ${path} (${severity})`, async () => {
    const r = await validate(d);
    const v = r.violations.find((x: { code: string; path: string }) => x.code === code && x.path === path) ?? r.violations.find((x: { code: string }) => x.code === code);
    assert.ok(v, `${code} not reported: ${JSON.stringify(r.violations)}`);
    assert.equal(v.path, path);
    assert.equal(v.severity, severity);
    assert.equal(typeof v.message, 'string');
    assert.equal(r.valid, r.errorCount === 0);
    assert.equal(r.errorCount + r.warningCount, r.violations.length);
    if (severity === 'warning' && r.errorCount === 0) assert.equal(r.valid, true, 'warnings do not make a document invalid');
  });
}

test('2.5 validation: too_deep, unknown_id, duplicate_id, data_set_link_removed, circular due dates', async () => {
  let deep: unknown = 'x';
  for (let i = 0; i < 100; i++) deep = [deep];
  const d = await validate(doc([task({ description: deep })]));
  assert.equal(d.violations[0].code, 'too_deep');
  assert.match(d.violations[0].path, /^\$\.tasks\[0\]\.description(\[0\])+$/);

  const exported = (await s.api(KEYS.admin, 'GET', `/v3/templates/${DEMO.onboarding}/document`)).body;
  const e1 = structuredClone(exported);
  e1.tasks[1].fields[0].id = '22000000-0000-4000-8000-000000000201'; // Expense Report's field
  e1.tasks[2].id = exported.tasks[1].id;
  delete e1.tasks[1].fields[2].dataSet;
  e1.tasks[1].fields[2].options = [{ text: 'Berlin' }];
  const r = await validate(e1, DEMO.onboarding);
  assert.deepEqual(codesAt(r), [
    'unknown_id $.tasks[1].fields[0].id',
    'data_set_link_removed $.tasks[1].fields[2]',
    'duplicate_id $.tasks[2].id',
  ]);

  const ring = await validate(
    doc([
      { ref: 'a', name: 'A', dueDate: { relativeTo: 'taskCompletion', task: 'b' } },
      { ref: 'b', name: 'B', dueDate: { relativeTo: 'taskCompletion', task: 'a' } },
      { ref: 'c', name: 'C', dueDate: { relativeTo: 'taskCompletion', task: 'c' } },
    ]),
  );
  assert.deepEqual(codesAt(ring), ['circular_reference $.tasks[0].dueDate.task', 'circular_reference $.tasks[1].dueDate.task', 'circular_reference $.tasks[2].dueDate.task']);
  assert.equal(ring.valid, true);
});

test('2.5 validation: violations come in document reading order', async () => {
  const r = await validate({
    tasks: [
      { name: 'A', fields: [{ type: 'Nope' }, { type: 'ShortText', regex: '(' }] },
      { ref: 'x', name: 'B', assignees: [{ name: 'Nobody' }] },
      { ref: 'x', name: '' },
    ],
    conditions: [{ action: 'show', targets: ['nope'], when: [{ field: 'x', operator: 'is', value: 'v' }] }],
    extra: true,
  });
  assert.deepEqual(codesAt(r), [
    'unknown_content_type $.tasks[0].fields[0].type',
    'invalid_regex $.tasks[0].fields[1].regex',
    'assignee_not_found $.tasks[1].assignees[0].name',
    'duplicate_ref $.tasks[2].ref',
    'required $.tasks[2].name',
    'unknown_ref $.conditions[0].targets[0]',
    'wrong_ref_kind $.conditions[0].when[0].field',
    'unknown_property $.extra',
    'required $.name',
  ]);
  assert.equal(r.errorCount, 9);
  assert.equal(r.valid, false);
});

test('2.5 validation: the fixture documents are valid; the demo template validates as an edit of itself', async () => {
  for (const f of ['expense-report.json', 'vendor-review.json', 'old-process.json']) {
    const raw = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'demo', 'templates', f), 'utf8'));
    for (const t of raw.tasks) {
      delete t.id;
      for (const fl of t.fields ?? []) delete fl.id;
    }
    const r = await validate(raw);
    assert.equal(r.valid, true, `${f}: ${JSON.stringify(r.violations)}`);
  }
});

test('bad input: not an object, null, strings, numbers, huge, deeply nested, cycles in conditions — never a 500', async () => {
  for (const d of [null, 'text', 42, true, [], [{ name: 'x' }]]) {
    const r = await validate(d);
    assert.deepEqual(codesAt(r), ['invalid_type $']);
  }
  const huge = doc(Array.from({ length: 1500 }, (_, i) => ({ ref: `t${i}`, name: `Task ${i}` })));
  const h = await validate(huge);
  assert.ok(codesAt(h).includes('too_large $.tasks'));
  const giant = await validate({ name: 'x', tasks: [], junk: 'y'.repeat(5_000_000) });
  assert.deepEqual(codesAt(giant), ['too_large $']);
  const deepText = '{"name":"x","tasks":[],"a":' + '{"a":'.repeat(5000) + '{}' + '}'.repeat(5001);
  const d = await s.api(KEYS.admin, 'POST', '/v3/templates/validate', deepText);
  assert.equal(d.status, 200);
  assert.equal(d.body.violations[0].code, 'too_deep');
  const raw = await s.api(KEYS.admin, 'POST', '/v3/templates/validate', '['.repeat(100000) + ']'.repeat(100000));
  assert.ok(raw.status === 200 || raw.status === 400, String(raw.status));
  const junk = await s.api(KEYS.admin, 'POST', '/v3/templates', { name: 1, tasks: { a: 1 }, conditions: 'x', notifications: [null, 1, { on: 'taskDue' }] });
  assert.equal(junk.status, 422);
  const weird = await validate({ name: 'x', tasks: [{ name: 't', fields: [{ type: 'DropDown', options: 'abc', dataSet: 5 }, null, 3] }], conditions: [{ action: 'show', targets: [1, null], when: [null, { field: 3 }] }], parameters: [null, { name: 5 }] });
  assert.equal(weird.valid, false);
  const proto = await s.api(KEYS.admin, 'POST', '/v3/templates/validate', '{"__proto__": {"x": 1}, "name": "p", "tasks": []}');
  assert.equal(proto.status, 200);
  assert.deepEqual(codesAt(proto.body), ['unknown_property $.__proto__']);
});

test('4.4 validate over MCP answers the same result as REST; forTemplate refusals', async () => {
  const c = await s.mcp(KEYS.admin);
  const d = doc([task({ fields: [{ type: 'Nope' }] })]);
  const r = await callTool(c, 'validate_template', { document: d });
  assert.deepEqual(r.body, await validate(d));
  const bad = await s.api(KEYS.admin, 'POST', '/v3/templates/validate?forTemplate=abc', d);
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.field, 'forTemplate');
  const missing = await s.api(KEYS.admin, 'POST', '/v3/templates/validate?forTemplate=20000000-0000-4000-8000-0000000000ff', d);
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.code, 'TEMPLATE_NOT_FOUND');
  const deny = await s.api(KEYS.noperm, 'POST', `/v3/templates/validate?forTemplate=${DEMO.vendor}`, d);
  assert.equal(deny.status, 403);
});

test('docs/validation-codes.md lists every code the validator knows, and every code has a test case', () => {
  const md = readFileSync(join(__dirname, '..', 'docs', 'validation-codes.md'), 'utf8');
  const tested = new Set([...CASES.map((c) => c[0]), 'too_deep', 'unknown_id', 'duplicate_id', 'data_set_link_removed', 'invalid_document']);
  for (const c of VALIDATION_CODES) {
    assert.ok(md.includes(`\`${c.code}\``), `${c.code} missing from docs`);
    assert.ok(tested.has(c.code), `${c.code} has no test`);
  }
});
