// MCP Inspector's CLI lists the tools with an OAuth access token (issue 38, "Done when"): the
// Inspector is a separate program, installed beside the checkout by .ci/run (WFE_MCP_INSPECTOR
// names its bin); the test skips with one line when it is absent.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { startTestServer, DEMO, type TestServer } from './helpers/server';

const INSPECTOR = process.env.WFE_MCP_INSPECTOR ?? '/tmp/mcp-inspector/node_modules/.bin/mcp-inspector';
const skip = existsSync(INSPECTOR) ? false : `MCP Inspector is not installed at ${INSPECTOR} (npm install --prefix DIR @modelcontextprotocol/inspector@2.12.0, then WFE_MCP_INSPECTOR=DIR/node_modules/.bin/mcp-inspector)`;

let s: TestServer;
before(async () => {
  if (!skip) s = await startTestServer();
});
const CATALOG = `${tmpdir()}/wfe-inspector-test-${process.pid}.json`;
after(async () => {
  await s?.close();
  rmSync(CATALOG, { force: true });
});

function inspector(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // From an empty directory, with its catalog there too: nothing of the user's is read or written.
    execFile(INSPECTOR, ['--cli', ...args], { cwd: tmpdir(), timeout: 120_000, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, MCP_CATALOG_PATH: CATALOG } }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

test('OAuth (issue 38): MCP Inspector\'s CLI lists the tools of /mcp with an access token (Authorization: Bearer)', { skip }, async () => {
  for (const [region, base, body] of [
    ['US', s.us, { workspace: DEMO.acme, actsAs: { type: 'member', id: DEMO.members.mia } }],
    ['EU', s.eu, { workspace: DEMO.globex, actsAs: { type: 'workspace' } }],
  ] as const) {
    const t = await s.api(null, 'POST', '/_emulator/oauth/tokens', body);
    assert.equal(t.status, 200, t.text);
    assert.equal(t.body.region, region);
    const r = await inspector([`${base}/mcp`, '--transport', 'http', '--method', 'tools/list', '--header', `Authorization: Bearer ${t.body.accessToken}`]);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const names = (JSON.parse(r.stdout) as { tools: { name: string }[] }).tools.map((x) => x.name);
    assert.ok(names.includes('list_my_work') && names.includes('list_members'), names.join(', '));
    // The journal names the token's sign-in, as for any client.
    const journal = await s.api(null, 'GET', '/_emulator/journal?limit=3');
    assert.ok(journal.body.items.some((e: any) => e.path === '/mcp' && e.status === 200 && e.region === region && e.keyName === 'OAuth: POST /_emulator/oauth/tokens'));
  }
});

test('OAuth (issue 38): MCP Inspector\'s CLI with a revoked token meets the 401 challenge and does not list tools', { skip }, async () => {
  const t = await s.api(null, 'POST', '/_emulator/oauth/tokens', { workspace: DEMO.acme, actsAs: { type: 'member', id: DEMO.members.ada } });
  const revoke = await fetch(`${s.us}/oauth/revoke`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: t.body.accessToken, client_id: t.body.clientId }) });
  assert.equal(revoke.status, 200);
  const r = await inspector([`${s.us}/mcp`, '--transport', 'http', '--method', 'tools/list', '--header', `Authorization: Bearer ${t.body.accessToken}`]);
  assert.notEqual(r.code, 0);
  assert.doesNotMatch(r.stdout, /"tools"/);
});
