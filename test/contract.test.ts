// Issue 10: the operation table declares every fact of every operation once, and
// what is generated from it (OpenAPI, tools/list, resources) carries them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { operations } from '../src/operations';
import { openApiDocument, openApiText } from '../src/openapi';
import { TAGS } from '../src/contract/tags';
import { compiled, partitionOf } from '../src/contract/compile';
import { startTestServer, KEYS } from './helpers/server';

const described = (s: unknown) => typeof (s as { description?: unknown }).description === 'string' && (s as { description: string }).description.length > 0;

test('issue 10: every operation declares tag, description, output, refusals and its tool or why none', () => {
  const missing: string[] = [];
  for (const op of operations) {
    if (!op.tag || !(op.tag in TAGS)) missing.push(`${op.id}: tag ${op.tag ?? '(none)'} not in src/contract/tags.ts`);
    if (!op.description) missing.push(`${op.id}: description`);
    if (!op.output && (op.status ?? 200) !== 204) missing.push(`${op.id}: output`);
    if (op.refusals === undefined) missing.push(`${op.id}: refusals`);
    if (!op.tool && !op.noTool) missing.push(`${op.id}: tool or noTool`);
    if (!op.fidelity?.mark || !op.fidelity.source) missing.push(`${op.id}: fidelity (docs/fidelity.md)`);
    for (const [name, s] of Object.entries(op.input)) if (!described(s)) missing.push(`${op.id}: input ${name} has no description`);
  }
  assert.deepEqual(missing, []);
});

test('issue 23: an operation for Administrators declares the text of its 403 FORBIDDEN, and FORBIDDEN is among its refusals', () => {
  const admins = operations.filter((op) => op.actor === 'admin');
  assert.ok(admins.length > 0);
  for (const op of admins) {
    assert.ok(typeof op.adminRefusal === 'string' && op.adminRefusal.length > 0, op.id);
    assert.ok(compiled(op).declares(403, 'FORBIDDEN'), op.id);
  }
});

test('issue 24: each operation is compiled once: its validator and tool entry are the same objects on every use', () => {
  for (const op of operations) {
    const c = compiled(op);
    assert.equal(compiled(op), c);
    assert.equal(c.inputSchema, c.inputSchema, op.id);
    assert.equal(c.tool, c.tool, op.id);
    assert.equal(c.tool === undefined, op.tool === undefined, op.id);
  }
});

test('issue 10: the path/query/body partition is computed once and covers every input property', () => {
  for (const op of operations) {
    const p = partitionOf(op);
    assert.equal(partitionOf(op), p);
    const all = [...p.path, ...p.query, ...p.body, ...(p.bodyAs ? [p.bodyAs] : [])].sort();
    assert.deepEqual(all, Object.keys(op.input).sort(), op.id);
  }
});

test('4.6: tools/list gives every tool an outputSchema and a description on every argument; resources/templates/list answers', async () => {
  const s = await startTestServer();
  try {
    const c = await s.mcp(KEYS.admin);
    const { tools } = await c.listTools();
    const problems: string[] = [];
    for (const t of tools) {
      if (!t.outputSchema) problems.push(`${t.name}: no outputSchema`);
      for (const [name, js] of Object.entries((t.inputSchema.properties ?? {}) as Record<string, { description?: string }>)) {
        if (!js.description) problems.push(`${t.name}.${name}: no description`);
      }
    }
    assert.deepEqual(problems, []);
    const { resourceTemplates } = await c.listResourceTemplates();
    assert.ok(resourceTemplates.some((r) => r.uriTemplate === 'wfe://templates/{key}/document'));
    const read = await c.readResource({ uri: 'wfe://content-types/ShortText' });
    assert.equal(read.contents[0].mimeType, 'application/json');
    assert.equal(JSON.parse((read.contents[0] as { text: string }).text).type, 'ShortText');
    await assert.rejects(c.readResource({ uri: 'wfe://templates/99999999-9999-4999-8999-999999999999/document' }), /TEMPLATE_NOT_FOUND/);
  } finally {
    await s.close();
  }
});

test('4.6 rules 1-2: a refusal validates against the tool outputSchema (the error envelope; its codes are in the description)', async () => {
  const s = await startTestServer();
  try {
    const c = await s.mcp(KEYS.admin);
    await c.listTools(); // the SDK client validates structuredContent against outputSchema from here on
    const r = await c.callTool({ name: 'get_member', arguments: { memberId: 999999 } });
    assert.equal(r.isError, true);
    assert.equal((r.structuredContent as { error: { code: string } }).error.code, 'MEMBER_NOT_FOUND');
  } finally {
    await s.close();
  }
});

test('issue 10: the contract self-check answers an undeclared refusal with 500 CONTRACT_VIOLATION', async () => {
  const op = operations.find((o) => o.id === 'getMember')!;
  const broken = { ...op, refusals: [] as typeof op.refusals };
  const s = await startTestServer({ ops: [broken] });
  try {
    const r = await s.api(KEYS.admin, 'GET', '/v3/members/999999');
    assert.equal(r.status, 500);
    assert.equal(r.body.error.code, 'CONTRACT_VIOLATION');
    assert.match(r.body.error.message, /404 MEMBER_NOT_FOUND is not declared/);
    const ok = await s.api(KEYS.admin, 'GET', '/v3/members/103');
    assert.equal(ok.status, 200);
  } finally {
    await s.close();
  }
});

test('issue 10: the contract self-check answers a body its output schema does not describe with 500 CONTRACT_VIOLATION', async () => {
  const op = operations.find((o) => o.id === 'getMember')!;
  const broken = { ...op, output: z.strictObject({ id: z.number() }) };
  const s = await startTestServer({ ops: [broken] });
  try {
    const r = await s.api(KEYS.admin, 'GET', '/v3/members/103');
    assert.equal(r.status, 500);
    assert.equal(r.body.error.code, 'CONTRACT_VIOLATION');
  } finally {
    await s.close();
  }
});

test('issue 10: OpenAPI lists each operation with its output schema, its refusals by status and its tag', async () => {
  const s = await startTestServer();
  try {
    const doc = (await s.api(null, 'GET', '/v3/openapi.json')).body;
    const get = doc.paths['/v3/members/{memberId}'].get;
    assert.equal(get.tags[0], 'People');
    assert.equal(get.responses['200'].content['application/json'].schema.type, 'object');
    assert.deepEqual(get.responses['404'].content['application/json'].schema.properties.error.properties.code.enum, ['MEMBER_NOT_FOUND']);
    assert.ok(get.responses['401'].content['application/json'].schema.properties.error.properties.code.enum.includes('API_KEY_REVOKED'));
    assert.equal(get.parameters[0].example, 103);
    assert.ok(doc.tags.every((t: { description: string }) => t.description));
  } finally {
    await s.close();
  }
});

test('GET /v3/openapi.json is the operation table\'s document, written a path at a time: the same text as the whole document serialised at once', async () => {
  const s = await startTestServer();
  try {
    const served = await (await fetch(`${s.urls.US}/v3/openapi.json`)).text();
    assert.equal(served, JSON.stringify(openApiDocument(s.emu.ops, s.emu.baseUrls)));
    assert.equal(openApiText(operations, { US: 'http://us.test', EU: 'http://eu.test' }), JSON.stringify(openApiDocument(operations, { US: 'http://us.test', EU: 'http://eu.test' })));
  } finally {
    await s.close();
  }
});
