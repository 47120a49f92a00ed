import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, callTool, mcpStdioClient, withoutRequestId, KEYS, type TestServer } from './helpers/server';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

test('4.6 rule 1: get_member over MCP HTTP carries the REST body in structuredContent', async () => {
  const rest = await s.api(KEYS.admin, 'GET', '/v3/members/103');
  assert.equal(rest.status, 200);
  const c = await s.mcp(KEYS.admin);
  const r = await callTool(c, 'get_member', { memberId: 103 });
  assert.equal(r.isError, false);
  assert.deepEqual(r.body, rest.body);
  assert.equal(r.text, JSON.stringify(rest.body));
});

test('4.6 rule 2: a refusal is an isError result with the v3 error body', async () => {
  const rest = await s.api(KEYS.admin, 'GET', '/v3/members/999');
  assert.equal(rest.status, 404);
  const c = await s.mcp(KEYS.admin);
  const r = await callTool(c, 'get_member', { memberId: 999 });
  assert.equal(r.isError, true);
  assert.deepEqual(withoutRequestId(r.body), withoutRequestId(rest.body));
  assert.match(r.text, /^MEMBER_NOT_FOUND: .* requestId: \S+$/);
  assert.ok(r.text.endsWith(r.body.error.requestId));
});

test('4.6: stdio MCP lists tools and answers like REST', async () => {
  const c = await mcpStdioClient(KEYS.member);
  try {
    const tools = await c.listTools();
    assert.ok(tools.tools.some((t) => t.name === 'list_members'));
    const rest = await s.api(KEYS.member, 'GET', '/v3/groups/301');
    const r = await callTool(c, 'get_group', { groupId: 301 });
    assert.deepEqual(r.body, rest.body);
  } finally {
    await c.close();
  }
});
