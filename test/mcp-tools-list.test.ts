// Issue 38, "Compact tool declarations" (docs/mcp.md): tools/list at most 100 KB, no tool over
// 8 KB, input schemas together at most 40 KB; what is advertised never stricter than what the
// server enforces; the template document's schema named, not carried. Spec v3 4.6 rules 1, 2, 4.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { startTestServer, MCP_ACCEPT, callTool, KEYS, DEMO, type TestServer } from './helpers/server';
import { toolsListSizes, TOOLS_LIST_GOALS } from '../bench/mcp-tools';
import { compactSchema, takesIdempotencyKey } from '../src/contract/tool';
import { isWrite } from '../src/operations/define';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});


async function rawList(query = '', headers: Record<string, string> = {}) {
  const r = await s.api(KEYS.admin, 'POST', `/mcp${query}`, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { ...MCP_ACCEPT, ...headers });
  assert.equal(r.status, 200, r.text);
  return { bytes: Buffer.byteLength(r.text), tools: r.body.result.tools as { name: string; inputSchema: any; outputSchema?: any; description: string; annotations: any }[] };
}

test('issue 38: tools/list is at most 100 KB, no tool over 8 KB, input schemas together at most 40 KB', async () => {
  const { bytes, tools } = await rawList();
  assert.equal(tools.length, s.emu.ops.filter((o) => o.tool).length);
  const sizes = toolsListSizes({ tools });
  assert.ok(bytes <= TOOLS_LIST_GOALS.totalBytes, `tools/list answer is ${bytes} bytes`);
  assert.ok(sizes.largest.bytes <= TOOLS_LIST_GOALS.perToolBytes, `${sizes.largest.name} is ${sizes.largest.bytes} bytes`);
  assert.ok(sizes.input <= TOOLS_LIST_GOALS.inputBytes, `input schemas are ${sizes.input} bytes`);
});

test('issue 38: no schema refers outside its own tool; an outputSchema is an object that takes the v3 error envelope', async () => {
  const { tools } = await rawList();
  for (const t of tools) {
    for (const [which, schema] of [['input', t.inputSchema], ['output', t.outputSchema]] as const) {
      if (!schema) continue;
      const refs = JSON.stringify(schema).match(/"\$ref":"[^"]*"/g) ?? [];
      for (const ref of refs) assert.match(ref, /"#\/\$defs\//, `${t.name} ${which}: ${ref}`);
    }
    assert.equal(t.outputSchema.type, 'object', t.name);
    const validate = new AjvJsonSchemaValidator().getValidator(t.outputSchema);
    assert.ok(validate({ error: { code: 'X', message: 'm', requestId: 'r' } }).valid, `${t.name}: the error envelope`);
  }
});

test('issue 38: a whole-document argument names get_template_schema and its resource; that schema is still served whole', async () => {
  const { tools } = await rawList();
  for (const name of ['create_template', 'create_template_version', 'validate_template']) {
    const doc = tools.find((t) => t.name === name)!.inputSchema.properties.document;
    assert.equal(doc.type, 'object', name);
    assert.match(doc.description, /get_template_schema/, name);
    assert.match(doc.description, /wfe:\/\/schemas\/template-document\.json/, name);
  }
  const c = await s.mcp(KEYS.admin);
  const schema = (await callTool(c, 'get_template_schema')).body;
  assert.deepEqual(schema.required, ['name', 'tasks']);
  const resource = await c.readResource({ uri: 'wfe://schemas/template-document.json' });
  assert.deepEqual(JSON.parse((resource.contents[0] as { text: string }).text).required, ['name', 'tasks']);
  // Input validation is what the server enforces, whatever is advertised: a bad document is still a 422 with every violation.
  const bad = await callTool(c, 'validate_template', { document: { name: 'x', tasks: [{ name: 'A', fields: [{ type: 'NoSuchType' }] }] } });
  assert.equal(bad.isError, false);
  assert.equal(bad.body.valid, false);
  assert.ok(bad.body.violations.length > 0);
});

test("issue 38: each tool's refusal codes are in its description; the shared ones in the server's instructions", async () => {
  const { tools } = await rawList();
  const complete = tools.find((t) => t.name === 'complete_task')!;
  assert.match(complete.description, /Refusals: .*404 CHECKLIST_NOT_FOUND, TASK_NOT_FOUND/);
  assert.match(complete.description, /409 CONFLICT/);
  const views = tools.find((t) => t.name === 'list_my_work_views')!;
  assert.match(views.description, /403 API_KEY_ACTS_AS_WORKSPACE/);
  const c = await s.mcp(KEYS.admin);
  const instructions = c.getInstructions() ?? '';
  for (const code of ['VALIDATION_ERROR', 'MISSING_API_KEY', 'API_KEY_REVOKED', 'WRONG_REGION', 'RATE_LIMIT_EXCEEDED']) assert.ok(instructions.includes(code), code);
});

test('issue 38: the SDK client (its default validator) accepts real answers against the compact outputSchemas: success and refusal', async () => {
  const c = await s.mcp(KEYS.admin);
  await c.listTools(); // from here on the client validates structuredContent against each outputSchema
  const task = await callTool(c, 'get_task', { checklistKey: DEMO.janeDoe, taskKey: DEMO.tasks.firstDayWelcome });
  assert.equal(task.isError, false, task.text);
  const page = await callTool(c, 'list_members', {});
  assert.ok(page.body.items.length > 0);
  const refused = await callTool(c, 'get_member', { memberId: 999999 });
  assert.equal(refused.body.error.code, 'MEMBER_NOT_FOUND');
  const guide = await callTool(c, 'get_authoring_guide');
  assert.equal(guide.body.format, 'markdown');
});

test('issue 38: a compact schema is never stricter than the one it was made from (it accepts whatever that accepts)', () => {
  const shape = z.strictObject({
    id: z.number().int().max(10),
    when: z.iso.datetime(),
    who: z.strictObject({ name: z.string().min(3), tags: z.array(z.string().regex(/^t/)) }),
    rows: z.array(z.strictObject({ k: z.literal('a') })),
    kind: z.enum(['A', 'B']),
    maybe: z.union([z.string(), z.null()]).optional(),
  });
  const full = z.toJSONSchema(shape) as Record<string, unknown>;
  delete full.$schema;
  const compact = compactSchema(full);
  // The SDK client's own validator (Ajv), as a client checks structuredContent.
  const ajv = { compile: (js: Record<string, unknown>) => (v: unknown) => new AjvJsonSchemaValidator().getValidator(js)(v).valid };
  const good = { id: 3, when: '2026-01-01T00:00:00Z', who: { name: 'Ann', tags: ['tx'] }, rows: [{ k: 'a' }], kind: 'A', maybe: null };
  assert.ok(ajv.compile(full)(good));
  assert.ok(ajv.compile(compact)(good));
  assert.ok(ajv.compile(compact)({ ...good, extra: 1, who: { other: true }, rows: [{}] }), 'below the top level only the type is said');
  assert.ok(!ajv.compile(compact)({ ...good, kind: 'C' }), 'top-level enums are kept');
  assert.ok(!ajv.compile(compact)({ id: 1 }), 'required properties are kept');
  assert.ok(!JSON.stringify(compact).includes('additionalProperties'));
});

test('spec v3 4.6 rule 4, 4.1 rule 12: every write tool whose route accepts Idempotency-Key takes idempotencyKey (update_my_work_view excepted by 4.6)', async () => {
  const { tools } = await rawList();
  const byName = new Map(tools.map((t) => [t.name, t]));
  for (const op of s.emu.ops) {
    if (!op.tool) continue;
    const takes = 'idempotencyKey' in byName.get(op.tool)!.inputSchema.properties;
    assert.equal(takes, takesIdempotencyKey(op), op.tool);
    if (op.tool === 'update_my_work_view') assert.equal(takes, false, '4.6: "the other arguments of create except idempotencyKey"');
    else assert.equal(takes, isWrite(op) && !op.annotations.readOnlyHint, op.tool);
  }
  assert.ok(byName.get('add_task_comment')!.inputSchema.properties.idempotencyKey);
  assert.ok(byName.get('create_my_work_view')!.inputSchema.properties.idempotencyKey);
});

test('issue 38: every tool answers its ok and refusal samples within its compact outputSchema, checked by the SDK client after listTools', async () => {
  const { opSamples } = await import('./helpers/op-samples');
  const setup = async (method: string, path: string, body?: unknown) => {
    const r = await s.api(KEYS.admin, method, path, body);
    assert.ok(r.status < 300, `sample setup ${method} ${path} answered ${r.status} ${r.text}`);
    return r.body;
  };
  const clients = new Map<string, Awaited<ReturnType<TestServer['mcp']>>>();
  let checked = 0;
  for (const op of s.emu.ops) {
    const sample = op.tool ? opSamples[op.id] : undefined;
    if (!sample) continue;
    for (const call of [sample.ok, sample.refusal]) {
      if ('none' in call) continue;
      const key = call.key ?? KEYS.admin;
      let c = clients.get(key);
      if (!c) {
        clients.set(key, (c = await s.mcp(key)));
        await c.listTools(); // the client now checks each structuredContent against the tool's outputSchema
      }
      const args = call.setup ? { ...call.args, ...(await call.setup(setup)) } : call.args;
      // Throws McpError "Structured content does not match the tool's output schema" on a mismatch.
      await c.callTool({ name: op.tool!, arguments: args });
      checked++;
    }
  }
  assert.ok(checked > 100, `${checked} answers checked`);
});
