// Fidelity marks (issue 22): every operation says whether its behaviour comes from the spec
// (documented), from our design (designed) or both (mixed), with the section or docs page; the
// OpenAPI document carries it as x-fidelity, tools/list in each tool's _meta, docs/fidelity.md
// is generated from the table (and must match it), and `wfe fidelity` prints that page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { operations } from '../src/operations';
import { fidelityMarkdown } from '../src/contract/fidelity';
import { startTestServer, KEYS, ROOT, type TestServer } from './helpers/server';
import { runCli } from './helpers/spine';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s?.close();
});

test('issue 22: every operation declares its fidelity mark with a spec section or an existing docs page; designed and mixed say what we designed', () => {
  const bad: string[] = [];
  for (const op of operations) {
    const f = op.fidelity;
    if (!f || !['documented', 'designed', 'mixed'].includes(f.mark)) {
      bad.push(`${op.id}: fidelity mark`);
      continue;
    }
    if (f.mark !== 'designed' && !/spec v3 \d/.test(f.source)) bad.push(`${op.id}: ${f.mark} names no spec section (${f.source})`);
    if (f.mark !== 'documented' && !f.designed) bad.push(`${op.id}: ${f.mark} without what we designed`);
    if (f.mark !== 'documented' && !/docs\/[\w-]+\.md/.test(f.source)) bad.push(`${op.id}: ${f.mark} names no docs page`);
    for (const page of f.source.match(/docs\/[\w-]+\.md/g) ?? []) if (!existsSync(join(ROOT, page))) bad.push(`${op.id}: ${page} does not exist`);
  }
  assert.deepEqual(bad, []);
});

test('issue 22: docs/fidelity.md is the table, generated (npm run docs:fidelity), and lists every designed behaviour', () => {
  const file = readFileSync(join(ROOT, 'docs', 'fidelity.md'), 'utf8');
  assert.equal(file, fidelityMarkdown(operations), 'docs/fidelity.md differs from the operation table: run npm run docs:fidelity');
  for (const op of operations) if (op.fidelity.mark !== 'documented') assert.ok(file.includes(`| \`${op.id}\` |`), op.id);
});

test('issue 22 with issue 26: the assignment paths and the status writes an exclusive assignment blocks are mixed, pointing at docs/decisions.md', () => {
  for (const id of ['setTaskAssignees', 'clearTaskAssignees', 'addTaskComment', 'completeTask', 'uncompleteTask', 'setTaskNotApplicable', 'clearTaskNotApplicable']) {
    const op = operations.find((o) => o.id === id)!;
    assert.equal(op.fidelity.mark, 'mixed', id);
    assert.match(op.fidelity.source, /docs\/decisions\.md/, id);
  }
  const schedules = operations.filter((o) => o.path.startsWith('/v3/schedules'));
  assert.ok(schedules.length >= 8 && schedules.every((o) => o.fidelity.mark === 'designed'));
});

test('issue 22: the OpenAPI document carries x-fidelity and its source on every operation', async () => {
  const doc = (await s.api(null, 'GET', '/v3/openapi.json')).body;
  const byId = new Map(operations.map((o) => [o.id, o]));
  let n = 0;
  for (const methods of Object.values(doc.paths) as Record<string, { operationId: string; 'x-fidelity': string; 'x-fidelity-source': string; 'x-fidelity-designed'?: string }>[]) {
    for (const o of Object.values(methods)) {
      const op = byId.get(o.operationId)!;
      assert.equal(o['x-fidelity'], op.fidelity.mark, o.operationId);
      assert.equal(o['x-fidelity-source'], op.fidelity.source, o.operationId);
      assert.equal(o['x-fidelity-designed'], op.fidelity.designed, o.operationId);
      n++;
    }
  }
  assert.equal(n, operations.length);
});

test('issue 22: tools/list carries each tool\'s fidelity in its _meta', async () => {
  const mcp = await s.mcp(KEYS.member);
  const { tools } = await mcp.listTools();
  const byTool = new Map(operations.filter((o) => o.tool).map((o) => [o.tool!, o]));
  assert.equal(tools.length, byTool.size);
  for (const t of tools) assert.deepEqual(t._meta?.fidelity, { ...byTool.get(t.name)!.fidelity }, t.name);
});

test('issue 22: wfe fidelity prints docs/fidelity.md', async () => {
  const run = runCli(['fidelity']);
  const { code } = await run.exited;
  assert.equal(code, 0, run.stderr());
  assert.equal(run.stdout(), readFileSync(join(ROOT, 'docs', 'fidelity.md'), 'utf8'));
});
