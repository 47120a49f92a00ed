// The served OpenAPI document as the clients integrators use read it (issue 22): openapi-typescript
// types every error body (no `unknown`); the CSV export is declared text/csv; a boolean query
// option accepts what the server accepts (`TRUE` too), checked with Ajv as a validating proxy
// does, and through Prism's proxy when it is installed. MCP refusals carry `_meta.status`, and
// a refused resource read carries its message once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import Ajv2020 from 'ajv/dist/2020';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startTestServer, KEYS, DEMO, ROOT, type TestServer } from './helpers/server';

let s: TestServer;
let dir: string;
 
let doc: any;

before(async () => {
  s = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'wfe-openapi-'));
  doc = (await s.api(null, 'GET', '/v3/openapi.json')).body;
});
after(async () => {
  await s?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

 
const operations = (): { path: string; method: string; op: any }[] =>
  Object.entries(doc.paths).flatMap(([path, byMethod]) => Object.entries(byMethod as object).map(([method, op]) => ({ path, method, op })));

/** `unknown` as a type (not inside a string such as "unknown_property"), in the error responses (4xx, 5xx) of a generated .d.ts. */
export function unknownsInErrorBodies(dts: string): { count: number; lines: string[] } {
  const lines: string[] = [];
  let inResponses = false;
  let inError = false;
  let errorIndent = 0;
  for (const line of dts.split('\n')) {
    if (/^\s+responses: \{/.test(line)) inResponses = true;
    const m = /^(\s+)(\d{3}): \{/.exec(line);
    if (inResponses && m && !inError && Number(m[2]) >= 400) {
      inError = true;
      errorIndent = m[1].length;
      continue;
    }
    if (inError) {
      if (new RegExp(`^ {${errorIndent}}\\};`).test(line)) {
        inError = false;
        continue;
      }
      // Response headers are an open record in openapi-typescript's output; the body is what counts.
      if (/\[name: string\]: unknown;/.test(line)) continue;
      if (/(?<!["\w])unknown(?![\w"])/.test(line.replace(/"[^"]*"/g, '""'))) lines.push(line.trim());
    }
  }
  return { count: lines.length, lines };
}

test('issue 22: openapi-typescript on the served document gives 0 `unknown` in error bodies; 422 TEMPLATE_INVALID violations are typed', () => {
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(doc));
  const out = join(dir, 'openapi.d.ts');
  execFileSync(join(ROOT, 'node_modules', '.bin', 'openapi-typescript'), [file, '-o', out], { stdio: 'ignore' });
  const dts = readFileSync(out, 'utf8');
  const found = unknownsInErrorBodies(dts);
  assert.equal(found.count, 0, found.lines.slice(0, 10).join('\n'));
  // The counter sees error bodies at all: the TEMPLATE_INVALID violation's properties are there.
  assert.match(dts, /severity: "error" \| "warning";/);
  // And it would catch an untyped one.
  assert.equal(unknownsInErrorBodies('        responses: {\n            400: {\n                content: {\n                    "application/json": { x?: unknown };\n                };\n            };\n').count, 1);
});

test('issue 22: GET /v3/data-sets/{key}/export is declared text/csv, as it answers', async () => {
  const op = doc.paths['/v3/data-sets/{dataSetKey}/export'].get;
  assert.deepEqual(Object.keys(op.responses['200'].content), ['text/csv']);
  const r = await fetch(`${s.us}/v3/data-sets/${DEMO.offices}/export`, { headers: { 'X-API-KEY': KEYS.admin } });
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type')!, /^text\/csv/);
  await r.arrayBuffer();
  // Every other success body is JSON.
  for (const { path, method, op: o } of operations()) {
    for (const [status, resp] of Object.entries(o.responses as Record<string, { content?: object }>)) {
      if (!resp.content || path.endsWith('/export')) continue;
      assert.deepEqual(Object.keys(resp.content), ['application/json'], `${method} ${path} ${status}`);
    }
  }
});

test('spec v3 4.4 boolean query options: the document takes what the server takes (true in any case); Ajv, as a validating proxy, passes includeArchived=TRUE', async () => {
  const ajv = new Ajv2020({ strict: false });
  let booleans = 0;
  for (const { path, method, op } of operations()) {
    for (const p of op.parameters as { in?: string; name?: string; schema?: object }[]) {
      if (p.in !== 'query' || !JSON.stringify(p.schema).includes('"boolean"')) continue;
      booleans++;
      const check = ajv.compile(p.schema!);
      for (const v of ['true', 'TRUE', 'True', 'false', 'FALSE', true, false]) assert.ok(check(v), `${method} ${path} ${p.name}=${String(v)}: ${JSON.stringify(check.errors)}`);
    }
  }
  assert.ok(booleans >= 3, `boolean query options found: ${booleans}`);
  const lower = await s.api(KEYS.admin, 'GET', '/v3/checklists?includeArchived=true&pageSize=100');
  const upper = await s.api(KEYS.admin, 'GET', '/v3/checklists?includeArchived=TRUE&pageSize=100');
  assert.equal(upper.status, 200);
  assert.deepEqual(upper.body, lower.body);
  assert.ok(upper.body.items.some((c: { key: string }) => c.key === DEMO.archivedOnboarding));
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

const PRISM = process.env.WFE_PRISM ?? join(ROOT, 'node_modules', '.bin', 'prism');
test('issue 22: Prism as a validating proxy passes includeArchived=TRUE to the emulator', { skip: existsSync(PRISM) ? false : `Prism is not installed at ${PRISM} (install @stoplight/prism-cli, or name its bin with WFE_PRISM, to run this check); Ajv above checks the same schema` }, async () => {
  const file = join(dir, 'prism.json');
  writeFileSync(file, JSON.stringify(doc));
  const port = await freePort();
  const child = spawn(PRISM, ['proxy', file, s.us, '--errors', '--port', String(port), '--host', '127.0.0.1'], { stdio: 'pipe' });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  try {
    let r: Response | undefined;
    for (let i = 0; i < 300 && !r; i++) {
      r = await fetch(`http://127.0.0.1:${port}/v3/checklists?includeArchived=TRUE`, { headers: { 'X-API-KEY': KEYS.admin } }).catch(() => undefined);
      if (!r) await new Promise((res) => setTimeout(res, 200));
    }
    assert.ok(r, `Prism did not start: ${log}`);
    const text = await r.text();
    assert.equal(r.status, 200, text);
  } finally {
    child.kill('SIGTERM');
  }
});

test('4.6 over MCP: a refusal carries the REST status in _meta like other non-200 answers', async () => {
  const mcp = await s.mcp(KEYS.member);
  const r = await mcp.callTool({ name: 'get_member', arguments: { memberId: 99999 } });
  assert.equal(r.isError, true);
  assert.equal((r.structuredContent as { error: { code: string } }).error.code, 'MEMBER_NOT_FOUND');
  assert.deepEqual(r._meta, { status: 404 });
  const bad = await mcp.callTool({ name: 'get_member', arguments: { memberId: 'abc' } });
  assert.equal(bad._meta?.status, 400);
});

test('issue 22 MCP: a refused resource read carries "MCP error -32002" once, with the API refusal in its data', async () => {
  const mcp = await s.mcp(KEYS.noperm);
  const err = await mcp.readResource({ uri: `wfe://checklists/${DEMO.janeDoe}` }).then(
    () => assert.fail('read should be refused'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof McpError);
  assert.equal(err.code, -32002);
  assert.equal(err.message.match(/MCP error/g)?.length, 1, err.message);
  assert.match(err.message, /^MCP error -32002: FORBIDDEN: /);
  assert.equal((err.data as { error: { code: string } }).error.code, 'FORBIDDEN');
  const none = await mcp.readResource({ uri: 'wfe://nothing/here' }).catch((e: Error) => e);
  assert.equal((none as Error).message.match(/MCP error/g)?.length, 1);
});
