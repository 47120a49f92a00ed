// Issue 38 "Protocol corners": an unknown tool is a JSON-RPC error -32602 (MCP specification,
// tools, "Error handling"), an empty batch is -32600 (JSON-RPC 2.0, "Batch"), and every write
// tool takes `idempotencyKey` with the `idempotentReplay` mark of spec v3 4.6 rule 4 on a replay
// (4.1 rule 12; 4.3: comment writes accept an idempotency key). Raw JSON-RPC over HTTP with
// fetch, and the SDK client over HTTP and stdio.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestServer, MCP_ACCEPT, mcpStdioClient, callTool, withoutRequestId, KEYS, DEMO, type TestServer } from './helpers/server';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

const rpc = (body: unknown, headers: Record<string, string> = {}, key: string | null = KEYS.admin) => s.api(key, 'POST', '/mcp', body, { ...MCP_ACCEPT, ...headers });
const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const taskPath = (task: string) => `/v3/checklists/${DEMO.janeDoe}/tasks/${task}`;
const commentsPath = (task: string) => `${taskPath(task)}/comments`;
/** The task's comments, from its detail (the comment list route is covered by get_task, spec v3 4.3). */
const commentCount = async (task: string) => ((await s.api(KEYS.admin, 'GET', taskPath(task))).body.comments as unknown[]).length;

test('MCP tools, error handling: an unknown tool is JSON-RPC error -32602 (raw JSON-RPC over HTTP)', async () => {
  const r = await rpc(call(11, 'no_such_tool'));
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { jsonrpc: '2.0', id: 11, error: { code: -32602, message: 'Unknown tool: no_such_tool' } });
  // In a batch, the unknown tool's error stands beside the other answers.
  const batch = await rpc([call(1, 'list_groups'), call(2, 'nope'), { jsonrpc: '2.0', id: 3, method: 'ping' }]);
  assert.equal(batch.status, 200);
  const byId = new Map((batch.body as { id: number }[]).map((m) => [m.id, m as any]));
  assert.equal(byId.get(1).result.structuredContent.total, 3);
  assert.deepEqual(byId.get(2).error, { code: -32602, message: 'Unknown tool: nope' });
  assert.deepEqual(byId.get(3).result, {});
  // A tool name that is not a string stays an invalid-params error too.
  const noName = await rpc({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 7 } });
  assert.equal(noName.body.error.code, -32602);
});

test('MCP tools, error handling: the SDK client sees an unknown tool as McpError -32602, over HTTP and stdio', async () => {
  const stdio = await mcpStdioClient(KEYS.admin);
  try {
    for (const c of [await s.mcp(KEYS.admin), stdio] as Client[]) {
      await assert.rejects(c.callTool({ name: 'no_such_tool', arguments: {} }), (e: unknown) => {
        assert.ok(e instanceof McpError, String(e));
        assert.equal(e.code, -32602);
        assert.match(e.message, /Unknown tool: no_such_tool/);
        return true;
      });
      // The connection goes on.
      assert.equal((await callTool(c, 'list_groups')).isError, false);
    }
  } finally {
    await stdio.close();
  }
});

test('JSON-RPC 2.0: a method the server does not have is -32601 Method not found, as the SDK answers it; bad tool arguments are a tool refusal (spec v3 4.6 rule 2)', async () => {
  const r = await rpc({ jsonrpc: '2.0', id: 21, method: 'no/such/method', params: {} });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { jsonrpc: '2.0', id: 21, error: { code: -32601, message: 'Method not found' } });
  // Arguments that are not an object: the tool answers as its REST route would, not a JSON-RPC error.
  const bad = await rpc({ jsonrpc: '2.0', id: 22, method: 'tools/call', params: { name: 'list_groups', arguments: [1] } });
  assert.equal(bad.body.result.isError, true);
  assert.equal(bad.body.result.structuredContent.error.code, 'VALIDATION_ERROR');
  assert.equal(bad.body.result.structuredContent.error.field, 'arguments');
});

test('JSON-RPC 2.0 Batch: an empty array is one error -32600, id null (raw JSON-RPC over HTTP)', async () => {
  const r = await rpc([], { 'X-Request-Id': 'empty-batch' });
  assert.equal(r.status, 400);
  assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.equal(r.headers.get('x-request-id'), 'empty-batch');
  assert.equal(r.body.jsonrpc, '2.0');
  assert.equal(r.body.id, null);
  assert.equal(r.body.error.code, -32600);
  assert.match(r.body.error.message, /empty batch/);
  // Charged like any other request (spec v3 8), and the key is checked first.
  assert.equal(r.headers.get('x-ratelimit-bucket'), 'standard');
  const noKey = await rpc([], {}, null);
  assert.equal(noKey.status, 401);
  assert.equal(noKey.body.error.code, 'MISSING_API_KEY');
});

test('spec v3 4.6 rule 4, 4.3: add_task_comment with idempotencyKey writes once; the replay is marked _meta.idempotentReplay (raw JSON-RPC)', async () => {
  const task = DEMO.tasks.managerApproval;
  const before = await commentCount(task);
  const args = { checklistKey: DEMO.janeDoe, taskKey: task, text: 'Safe to retry', idempotencyKey: 'comment-1' };
  const first = await rpc(call(1, 'add_task_comment', args));
  assert.equal(first.body.result.isError, undefined, first.text);
  assert.equal(first.body.result._meta?.idempotentReplay, undefined);
  const again = await rpc(call(2, 'add_task_comment', args));
  assert.equal(again.body.result._meta.idempotentReplay, true);
  assert.deepEqual(again.body.result.structuredContent, first.body.result.structuredContent);
  assert.equal(await commentCount(task), before + 1, 'one comment written');
  // REST with the same key and request replays the MCP answer (spec v3 4.1 rule 12: the same request).
  const rest = await s.api(KEYS.admin, 'POST', commentsPath(task), { text: 'Safe to retry' }, { 'Idempotency-Key': 'comment-1' });
  assert.equal(rest.headers.get('idempotent-replayed'), 'true');
  // The same key with other arguments is CONFLICT, as over REST.
  const other = await rpc(call(3, 'add_task_comment', { ...args, text: 'Something else' }));
  assert.equal(other.body.result.isError, true);
  assert.equal(other.body.result.structuredContent.error.code, 'CONFLICT');
  const restOther = await s.api(KEYS.admin, 'POST', commentsPath(task), { text: 'Something else' }, { 'Idempotency-Key': 'comment-1' });
  assert.equal(restOther.status, 409);
  assert.deepEqual(withoutRequestId(other.body.result.structuredContent), withoutRequestId(restOther.body));
});

test('spec v3 4.6 rule 4: the SDK client sees the replay mark on a task write with idempotencyKey, over HTTP and stdio; a bad key is field idempotencyKey', async () => {
  const stdio = await mcpStdioClient(KEYS.admin);
  try {
    let n = 0;
    for (const c of [await s.mcp(KEYS.admin), stdio] as Client[]) {
      const args = { checklistKey: DEMO.janeDoe, taskKey: DEMO.tasks.managerApproval, dueDateTime: `2031-0${++n}-01T09:00:00Z`, idempotencyKey: `due-${n}` };
      const first = await callTool(c, 'set_task_due_date', args);
      assert.equal(first.isError, false, first.text);
      assert.equal(first.meta?.idempotentReplay, undefined);
      const again = await callTool(c, 'set_task_due_date', args);
      assert.equal(again.meta?.idempotentReplay, true);
      assert.deepEqual(again.body, first.body);
      const tooLong = await callTool(c, 'add_task_comment', { checklistKey: DEMO.janeDoe, taskKey: DEMO.tasks.managerApproval, text: 'x', idempotencyKey: 'k'.repeat(256) });
      assert.equal(tooLong.body.error.code, 'VALIDATION_ERROR');
      assert.equal(tooLong.body.error.field, 'idempotencyKey');
    }
  } finally {
    await stdio.close();
  }
});
