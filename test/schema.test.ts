// Schema routes (spec v3 4.4 rule 4, 8: cheap) and the MCP tools, resources and
// prompt that teach an agent the template document.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, callTool, withoutRequestId, KEYS, type TestServer } from './helpers/server';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

let s: TestServer;
let c: Client;
before(async () => {
  s = await startTestServer();
  c = await s.mcp(KEYS.member);
});
after(async () => {
  await s.close();
});

const ROUTES: [string, string, Record<string, unknown>][] = [
  ['/v3/schema/template', 'get_template_schema', {}],
  ['/v3/schema/authoring-guide', 'get_authoring_guide', {}],
  ['/v3/schema/content-types', 'list_content_types', {}],
  ['/v3/schema/content-types/ShortText', 'describe_content_type', { type: 'ShortText' }],
  ['/v3/schema/condition-operators', 'list_condition_operators', {}],
  ['/v3/schema/due-date-scenarios', 'list_due_date_scenarios', {}],
];

for (const [path, tool, args] of ROUTES) {
  test(`8 schema: GET ${path} is cheap and ${tool} answers the same`, async () => {
    const rest = await s.api(KEYS.member, 'GET', path);
    assert.equal(rest.status, 200);
    assert.equal(rest.headers.get('x-ratelimit-bucket'), 'cheap');
    const r = await callTool(c, tool, args);
    assert.equal(r.isError, false);
    assert.deepEqual(r.body, rest.body);
  });
}

test('schema: content types cover every type the spec names, plus LinkedChecklist', async () => {
  const r = await s.api(KEYS.member, 'GET', '/v3/schema/content-types');
  const names = r.body.contentTypes.map((t: { type: string }) => t.type);
  for (const t of ['ShortText', 'LongText', 'EmailInput', 'Website', 'Date', 'DropDown', 'MultiChoice', 'SubTasks', 'Members', 'Table', 'File', 'FileUpload', 'Image', 'Video', 'Text', 'LinkedChecklist']) {
    assert.ok(names.includes(t), t);
    const d = await s.api(KEYS.member, 'GET', `/v3/schema/content-types/${t}`);
    assert.equal(d.status, 200);
    assert.equal(d.body.type, t);
    assert.equal(d.body.schema.properties.type.const, t);
  }
  const lower = await s.api(KEYS.member, 'GET', '/v3/schema/content-types/dropdown');
  assert.equal(lower.body.type, 'DropDown');
  assert.deepEqual(lower.body.conditionOperators, ['is', 'isNot', 'isEmpty', 'isNotEmpty']);
});

test('schema: describe_content_type with an unknown type is 404 CONTENT_TYPE_NOT_FOUND on REST and MCP', async () => {
  const rest = await s.api(KEYS.member, 'GET', '/v3/schema/content-types/Checkbox');
  assert.equal(rest.status, 404);
  assert.equal(rest.body.error.code, 'CONTENT_TYPE_NOT_FOUND');
  const r = await callTool(c, 'describe_content_type', { type: 'Checkbox' });
  assert.equal(r.isError, true);
  assert.deepEqual(withoutRequestId(r.body), withoutRequestId(rest.body));
});

test('schema: validation codes route lists the documented codes', async () => {
  const r = await s.api(KEYS.member, 'GET', '/v3/schema/validation-codes');
  assert.equal(r.headers.get('x-ratelimit-bucket'), 'cheap');
  const codes = r.body.codes.map((x: { code: string }) => x.code);
  for (const known of ['never_shown', 'never_restored', 'never_sent', 'circular_reference', 'data_set_link_removed', 'unknown_ref', 'assignee_not_found']) assert.ok(codes.includes(known), known);
});

test('schema: the template JSON Schema is the one zod schema (strict objects, every content type)', async () => {
  const r = await s.api(KEYS.member, 'GET', '/v3/schema/template');
  assert.equal(r.body.type, 'object');
  assert.deepEqual(r.body.required, ['name', 'tasks']);
  assert.equal(r.body.additionalProperties, false);
  const fieldTypes = r.body.properties.tasks.items.properties.fields.items.oneOf.map((o: { properties: { type: { const: string } } }) => o.properties.type.const);
  assert.equal(fieldTypes.length, 16);
  // The tools that take a whole document name where this schema is, rather than carrying it (docs/mcp.md).
  const tools = await c.listTools();
  const create = tools.tools.find((t) => t.name === 'create_template')!;
  const docSchema = (create.inputSchema.properties as Record<string, { type?: string; description?: string }>).document;
  assert.equal(docSchema.type, 'object');
  assert.match(docSchema.description ?? '', /get_template_schema/);
  assert.deepEqual((await callTool(c, 'get_template_schema')).body, r.body);
});

test('the authoring guide is docs/template-document.md, also as an MCP resource and a prompt', async () => {
  const md = readFileSync(join(__dirname, '..', 'docs', 'template-document.md'), 'utf8');
  const g = await callTool(c, 'get_authoring_guide');
  assert.equal(g.body.text, md);
  assert.equal(g.body.format, 'markdown');
  const res = await c.listResources();
  const uri = res.resources.find((r) => r.name === 'template-authoring-guide')!.uri;
  const read = await c.readResource({ uri });
  assert.equal((read.contents[0] as { text: string }).text, md);
  const prompts = await c.listPrompts();
  assert.ok(prompts.prompts.some((p) => p.name === 'author_template'));
  const p = await c.getPrompt({ name: 'author_template' });
  assert.ok((p.messages[0].content as { text: string }).text.includes('## Worked example'));
});

test('agent-style: a document written only from get_template_schema and the guide worked example validates and creates', async () => {
  const admin = await s.mcp(KEYS.admin);
  const schema = (await callTool(admin, 'get_template_schema')).body;
  const guide = (await callTool(admin, 'get_authoring_guide')).body;
  // The agent takes the worked example and adapts it, using only property names the schema offers.
  const doc = structuredClone(guide.example);
  doc.name = 'Laptop Purchase';
  doc.tasks[1].fields.push({ ref: 'justification', type: 'LongText', label: 'Justification' });
  for (const k of Object.keys(doc)) assert.ok(k in schema.properties, `${k} is not in the schema`);
  const v = await callTool(admin, 'validate_template', { document: doc });
  assert.equal(v.body.valid, true, JSON.stringify(v.body.violations));
  assert.equal(v.body.warningCount, 0, JSON.stringify(v.body.violations));
  const created = await callTool(admin, 'create_template', { document: doc });
  assert.equal(created.isError, false, JSON.stringify(created.body));
  assert.equal(created.body.name, 'Laptop Purchase');
  assert.equal(created.body.tasks.length, 4);
  assert.equal(created.body.tasks[1].fields[2].regex, '/^\\d+(\\.\\d{2})?$/');
  // Over REST, from the guide's example as printed in the markdown.
  const rest = await s.api(KEYS.admin, 'POST', '/v3/templates', guide.example);
  assert.equal(rest.status, 201, rest.text);
});

test('4.6: over stdio, validate_template and get_template_schema answer like REST', async () => {
  const { mcpStdioClient } = await import('./helpers/server');
  const stdio = await mcpStdioClient(KEYS.admin);
  try {
    const doc = { name: 'Stdio', tasks: [{ name: 'x', fields: [{ type: 'Nope' }] }] };
    const r = await callTool(stdio, 'validate_template', { document: doc });
    const rest = await s.api(KEYS.admin, 'POST', '/v3/templates/validate', doc);
    assert.deepEqual(r.body, rest.body);
    const sch = await callTool(stdio, 'get_template_schema');
    assert.deepEqual(sch.body, (await s.api(KEYS.admin, 'GET', '/v3/schema/template')).body);
  } finally {
    await stdio.close();
  }
});
