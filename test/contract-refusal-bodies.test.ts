// Issue 39: the contract self-check holds every refusal body to the declared error schema of its
// status (REST and MCP alike), and a refusal's extra members are declared where they are given:
// the Data Set delete's 409 carries a typed `templates`, which generated clients see.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { startTestServer, KEYS, DEMO, ROOT, callTool } from './helpers/server';
import { operations } from '../src/operations';
import { ApiError } from '../src/errors';
import { READ, defineOperation, designed, withFacts, type Operation } from '../src/operations/define';

/** An operation whose only answer is a 409 carrying `extra`; `declared`: whether it says so. */
const probe = (declared: boolean): Operation =>
  defineOperation({
    id: 'contractProbe',
    tool: 'contract_probe',
    method: 'GET',
    path: '/v3/contract-probe',
    summary: 'Refuse with an extra member',
    fidelity: designed('test', 'a probe of the self-check'),
    input: () => ({}),
    output: () => z.strictObject({ ok: z.boolean() }),
    refusals: ['409 CONFLICT'],
    ...(declared ? { refusalDetails: () => ({ '409 CONFLICT': { extra: z.number().int().describe('What the probe adds') } }) } : {}),
    budget: 'standard',
    annotations: READ,
    handler: () => {
      throw new ApiError(409, 'CONFLICT', 'The probe refuses.', { extra: 7 });
    },
  });

test('issue 39: the self-check answers 500 CONTRACT_VIOLATION for a refusal body outside its declared schema, over REST and MCP', async () => {
  const s = await startTestServer({ ops: [probe(false)] });
  try {
    const r = await s.api(KEYS.admin, 'GET', '/v3/contract-probe');
    assert.equal(r.status, 500, r.text);
    assert.equal(r.body.error.code, 'CONTRACT_VIOLATION');
    assert.match(r.body.error.message, /refusal 409 CONFLICT body, error: .*\(extra\)/);
    const c = await s.mcp(KEYS.admin);
    const m = await callTool(c, 'contract_probe');
    assert.equal(m.isError, true);
    assert.equal(m.body.error.code, 'CONTRACT_VIOLATION');
    assert.equal(s.emu.contract!.violations.length, 2);
  } finally {
    await s.close();
  }
});

test('issue 39: a declared refusal detail passes the self-check and is in the OpenAPI response and the tool\'s output schema', async () => {
  const s = await startTestServer({ ops: [probe(true)] });
  try {
    const r = await s.api(KEYS.admin, 'GET', '/v3/contract-probe');
    assert.equal(r.status, 409, r.text);
    assert.equal(r.body.error.extra, 7);
    const doc = (await s.api(null, 'GET', '/v3/openapi.json')).body;
    const err = doc.paths['/v3/contract-probe'].get.responses['409'].content['application/json'].schema.properties.error;
    assert.equal(err.properties.extra.type, 'integer');
    assert.equal(err.additionalProperties, false);
    assert.ok(!err.required.includes('extra'));
    // The MCP SDK's Client validates structuredContent against the outputSchema: it accepts the refusal.
    const c = await s.mcp(KEYS.admin);
    const m = await callTool(c, 'contract_probe');
    assert.equal(m.isError, true);
    assert.equal(m.body.error.extra, 7);
    assert.equal(s.emu.contract!.violations.length, 0);
  } finally {
    await s.close();
  }
});

test('issue 39: DELETE /v3/data-sets/{key} of a linked Data Set: 409 with templates [{key, name}], declared and checked', async () => {
  const del = operations.find((o) => o.id === 'deleteDataSet')!;
  // Without its declaration the self-check catches the body (what issue 39 found by hand).
  const undeclared = await startTestServer({ ops: [withFacts(del, { refusalDetails: undefined })] });
  try {
    const r = await undeclared.api(KEYS.admin, 'DELETE', `/v3/data-sets/${DEMO.offices}`);
    assert.equal(r.status, 500, r.text);
    assert.match(r.body.error.message, /refusal 409 CONFLICT body.*templates/);
  } finally {
    await undeclared.close();
  }
  const s = await startTestServer();
  const dir = mkdtempSync(join(tmpdir(), 'wfe-refusal-'));
  try {
    const r = await s.api(KEYS.admin, 'DELETE', `/v3/data-sets/${DEMO.offices}`);
    assert.equal(r.status, 409, r.text);
    assert.deepEqual(r.body.error.templates, [{ key: DEMO.onboarding, name: 'Employee Onboarding' }]);
    const doc = (await s.api(null, 'GET', '/v3/openapi.json')).body;
    for (const [path, method] of [['/v3/data-sets/{dataSetKey}', 'delete'], ['/v3/data-sets/{dataSetKey}/fields/{fieldKey}', 'delete']]) {
      const t = doc.paths[path][method].responses['409'].content['application/json'].schema.properties.error.properties.templates;
      assert.equal(t.type, 'array', path);
      assert.deepEqual(t.items.required, ['key', 'name']);
      assert.equal(t.items.properties.key.format, 'uuid');
    }
    // Generated TypeScript clients see it (openapi-typescript on the served document).
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    execFileSync(join(ROOT, 'node_modules', '.bin', 'openapi-typescript'), [file, '-o', join(dir, 'api.d.ts')], { stdio: 'ignore' });
    const dts = readFileSync(join(dir, 'api.d.ts'), 'utf8');
    const start = dts.indexOf('    deleteDataSet: {');
    const block = dts.slice(start, dts.indexOf('\n    };', start));
    const at = block.indexOf('templates?: {', block.indexOf('            409: {'));
    assert.ok(at > 0, 'the 409 of deleteDataSet types templates');
    const typed = block.slice(at, block.indexOf('}[];', at) + 4).replace(/\/\*\*[\s\S]*?\*\//g, '').replace(/\s+/g, ' ');
    assert.equal(typed, 'templates?: { key: string; name: string; }[];');
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('issue 39, point 5: the README\'s typed-client line pins openapi-typescript 7 and TypeScript 5, the range openapi-typescript asks for', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const line = readme.split('\n').find((l) => l.includes('openapi-typescript http://127.0.0.1:8787/v3/openapi.json'));
  assert.ok(line, 'the README has the typed-client line');
  assert.match(line, /npx -y -p openapi-typescript@7 -p typescript@5 openapi-typescript /);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'openapi-typescript', 'package.json'), 'utf8'));
  assert.equal(pkg.version.split('.')[0], '7');
  assert.equal(pkg.peerDependencies.typescript, '^5.x');
});
