// Issue 38 "Narrowing" (EMULATOR.md "Narrowing MCP", docs/mcp.md): `wfe mcp --read-only`,
// `--tools`, `--toolsets`, and the same for /mcp by query parameter or X-MCP-* header. A tool
// outside the set is neither listed nor callable: calling it is the JSON-RPC error of an unknown
// tool (-32602). Over stdio with a real `wfe mcp` process and the SDK's StdioClientTransport,
// and over HTTP with the SDK client and raw JSON-RPC.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startTestServer, MCP_ACCEPT, mcpStdioClient, callTool, KEYS, DEMO, ROOT, type TestServer } from './helpers/server';
import { TOOLSETS } from '../src/transports/mcp/narrowing';
import { TAGS } from '../src/contract/tags';
import type { Operation } from '../src/operations/define';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

const toolOps = (): Operation[] => s.emu.ops.filter((o) => o.tool);
const readOnlyTools = () => toolOps().filter((o) => o.annotations.readOnlyHint).map((o) => o.tool!).sort();
const toolsOfSets = (...sets: string[]) => toolOps().filter((o) => sets.some((x) => o.tag !== undefined && TOOLSETS[x].includes(o.tag))).map((o) => o.tool!).sort();
const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name).sort();

/** The call is refused as a tool nobody serves: JSON-RPC -32602, from the SDK client. */
async function assertUnknownTool(c: Client, name: string, args: Record<string, unknown>): Promise<void> {
  await assert.rejects(c.callTool({ name, arguments: args }), (e: unknown) => {
    assert.ok(e instanceof McpError, String(e));
    assert.equal(e.code, -32602);
    assert.match(e.message, new RegExp(`Unknown tool: ${name}`));
    return true;
  });
}

async function httpClient(path: string, headers: Record<string, string> = {}): Promise<Client> {
  const c = new Client({ name: 'narrowing-test', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${s.us}${path}`), { requestInit: { headers: { 'X-API-KEY': KEYS.admin, ...headers } } }));
  return c;
}

test('issue 38: every tag of the operation table belongs to a toolset, and the toolsets are the eight named', () => {
  assert.deepEqual(Object.keys(TOOLSETS).sort(), ['checklists', 'data-sets', 'my-work', 'people', 'schedules', 'tasks', 'templates', 'webhooks']);
  for (const tag of Object.keys(TAGS)) assert.equal(Object.values(TOOLSETS).filter((tags) => tags.includes(tag)).length, 1, tag);
});

test('issue 38 over stdio: wfe mcp --read-only lists only the read-only tools; a write is an unknown tool and changes nothing', async () => {
  const c = await mcpStdioClient(KEYS.admin, ['--read-only']);
  try {
    assert.deepEqual(await names(c), readOnlyTools());
    assert.ok((await names(c)).includes('get_task'));
    const read = await callTool(c, 'get_task', { checklistKey: DEMO.janeDoe, taskKey: DEMO.tasks.managerApproval });
    assert.equal(read.isError, false, read.text);
    await assertUnknownTool(c, 'complete_task', { checklistKey: DEMO.janeDoe, taskKey: DEMO.tasks.managerApproval });
    const after = await callTool(c, 'get_task', { checklistKey: DEMO.janeDoe, taskKey: DEMO.tasks.managerApproval });
    assert.equal(after.body.status, read.body.status);
  } finally {
    await c.close();
  }
});

test('issue 38 over stdio: --toolsets people,my-work and --tools get_task list exactly those; the rest are unknown tools', async () => {
  const c = await mcpStdioClient(KEYS.member, ['--toolsets', 'people,my-work', '--tools', 'get_task']);
  try {
    const expected = [...toolsOfSets('people', 'my-work'), 'get_task'].sort();
    assert.deepEqual(await names(c), expected);
    assert.ok(expected.includes('list_members') && expected.includes('list_my_work') && expected.includes('list_tags'));
    assert.equal((await callTool(c, 'list_members')).isError, false);
    await assertUnknownTool(c, 'list_templates', {});
    await assertUnknownTool(c, 'no_such_tool', {});
  } finally {
    await c.close();
  }
  const both = await mcpStdioClient(KEYS.member, ['--toolsets', 'my-work', '--read-only']);
  try {
    assert.deepEqual(await names(both), ['list_my_work', 'list_my_work_views']);
    await assertUnknownTool(both, 'create_my_work_view', { name: 'x' });
  } finally {
    await both.close();
  }
});

test('issue 38 over stdio: an unknown toolset or tool name stops wfe mcp with exit code 2 and a message naming the known ones', () => {
  const run = (args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli.ts'), 'mcp', ...args], { cwd: ROOT, env: { ...process.env, WFE_CLI: '1', SVC_API_KEY: KEYS.admin }, input: '', encoding: 'utf8', timeout: 60_000 });
  const sets = run(['--toolsets', 'tasks,chores']);
  assert.equal(sets.status, 2, sets.stderr);
  assert.match(sets.stderr, /--toolsets: no toolset is named chores\. Toolsets: tasks, checklists, templates, people, my-work, data-sets, schedules, webhooks/);
  const tools = run(['--tools', 'get_task,do_everything']);
  assert.equal(tools.status, 2, tools.stderr);
  assert.match(tools.stderr, /--tools: no tool is named do_everything/);
});

test('issue 38 over HTTP: /mcp?readOnly=true and X-MCP-Readonly: true list only the read-only tools; a write is an unknown tool', async () => {
  for (const [path, headers] of [['/mcp?readOnly=true', {}], ['/mcp', { 'X-MCP-Readonly': 'true' }]] as const) {
    const c = await httpClient(path, headers);
    try {
      assert.deepEqual(await names(c), readOnlyTools(), path);
      assert.equal((await callTool(c, 'list_groups')).isError, false);
      await assertUnknownTool(c, 'add_task_comment', { checklistKey: DEMO.janeDoe, taskKey: DEMO.tasks.managerApproval, text: 'hi' });
    } finally {
      await c.close();
    }
  }
  const r = await s.api(KEYS.admin, 'GET', `/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.managerApproval}`);
  assert.equal(r.body.comments.length, 0, 'the refused comment was not written');
});

test('issue 38 over HTTP: toolsets and tools by query and by header; both given, a tool must pass both', async () => {
  const byQuery = await httpClient('/mcp?toolsets=templates&tools=list_members');
  try {
    assert.deepEqual(await names(byQuery), [...toolsOfSets('templates'), 'list_members'].sort());
    await assertUnknownTool(byQuery, 'list_groups', {});
  } finally {
    await byQuery.close();
  }
  const byHeader = await httpClient('/mcp', { 'X-MCP-Toolsets': 'people', 'X-MCP-Tools': 'get_task' });
  try {
    assert.deepEqual(await names(byHeader), [...toolsOfSets('people'), 'get_task'].sort());
  } finally {
    await byHeader.close();
  }
  const both = await httpClient('/mcp?toolsets=people', { 'X-MCP-Readonly': '1', 'X-MCP-Tools': 'list_members,get_task' });
  try {
    assert.deepEqual(await names(both), ['list_members']);
  } finally {
    await both.close();
  }
});

test('issue 38 over HTTP, raw JSON-RPC: a narrowed-out tool answers exactly as an unknown tool does', async () => {
  const call = (name: string) => ({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name, arguments: {} } });
  const out = await s.api(KEYS.admin, 'POST', '/mcp?toolsets=tasks', call('list_members'), MCP_ACCEPT);
  const unknown = await s.api(KEYS.admin, 'POST', '/mcp', call('list_memberz'), MCP_ACCEPT);
  assert.equal(out.status, 200);
  assert.deepEqual(out.body, { jsonrpc: '2.0', id: 5, error: { code: -32602, message: 'Unknown tool: list_members' } });
  assert.deepEqual(unknown.body, { jsonrpc: '2.0', id: 5, error: { code: -32602, message: 'Unknown tool: list_memberz' } });
  const inside = await s.api(KEYS.admin, 'POST', '/mcp?toolsets=people', call('list_members'), MCP_ACCEPT);
  assert.equal(inside.body.result.isError, undefined);
  // Charged as an unknown tool is (standard), not as the cheap schema tool it would have been (spec v3 8).
  const cheap = await s.api(KEYS.admin, 'POST', '/mcp', call('get_template_schema'), MCP_ACCEPT);
  assert.equal(cheap.headers.get('x-ratelimit-bucket'), 'cheap');
  const leftOut = await s.api(KEYS.admin, 'POST', '/mcp?toolsets=people', call('get_template_schema'), MCP_ACCEPT);
  assert.equal(leftOut.body.error.code, -32602);
  assert.equal(leftOut.headers.get('x-ratelimit-bucket'), unknown.headers.get('x-ratelimit-bucket'));
  assert.equal(leftOut.headers.get('x-ratelimit-bucket'), 'standard');
});

test('issue 38 over HTTP: an unknown toolset, tool or readOnly value is 400 VALIDATION_ERROR naming the parameter or header', async () => {
  const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
  const cases: [string, Record<string, string>, string, RegExp][] = [
    ['/mcp?toolsets=chores', {}, 'toolsets', /no toolset is named chores/],
    ['/mcp?tools=get_task,nope', {}, 'tools', /no tool is named nope/],
    ['/mcp?tools=', {}, 'tools', /at least one tool/],
    ['/mcp?readOnly=maybe', {}, 'readOnly', /true or false/],
    ['/mcp', { 'X-MCP-Toolsets': 'tasks,,x' }, 'X-MCP-Toolsets', /no toolset is named x/],
    ['/mcp', { 'X-MCP-Readonly': 'yes' }, 'X-MCP-Readonly', /true or false/],
  ];
  for (const [path, headers, field, message] of cases) {
    const r = await s.api(KEYS.admin, 'POST', path, list, { ...MCP_ACCEPT, ...headers, 'X-Request-Id': 'narrow-1' });
    assert.equal(r.status, 400, `${path} ${JSON.stringify(headers)}: ${r.text}`);
    assert.equal(r.body.error.code, 'VALIDATION_ERROR');
    assert.equal(r.body.error.field, field);
    assert.equal(r.body.error.requestId, 'narrow-1');
    assert.match(r.body.error.message, message);
  }
  // The key is checked first, as on every v3 route (spec v3 5).
  const noKey = await s.api(null, 'POST', '/mcp?toolsets=chores', list, MCP_ACCEPT);
  assert.equal(noKey.status, 401);
  assert.equal(noKey.body.error.code, 'MISSING_API_KEY');
  // readOnly=false narrows nothing.
  const all = await s.api(KEYS.admin, 'POST', '/mcp?readOnly=false', list, MCP_ACCEPT);
  assert.equal(all.body.result.tools.length, toolOps().length);
});
