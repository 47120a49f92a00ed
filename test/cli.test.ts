// The command line (EMULATOR.md "Command line"): help, the serve banner, clean
// shutdown on SIGTERM and SIGINT, WFE_* variables (flags win), bad budgets refused.
// The CLI runs from source: node --import tsx src/cli.ts with WFE_CLI=1.
// test:slow: every test starts `wfe` as a child process (help, banner, signals, variables).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from './helpers/spine';

const urlsOf = (banner: string) => {
  const us = /US\s+REST (http:\/\/127\.0\.0\.1:(\d+))\/v3\s+MCP (\S+)/.exec(banner);
  const eu = /EU\s+REST (http:\/\/127\.0\.0\.1:(\d+))\/v3\s+MCP (\S+)/.exec(banner);
  assert.ok(us && eu, banner);
  return { us: us[1], eu: eu[1], usMcp: us[3], euMcp: eu[3] };
};

test('CLI: wfe --help lists the commands', async () => {
  const r = runCli(['--help']);
  const { code } = await r.exited;
  assert.equal(code, 0);
  for (const c of ['serve', 'mcp', 'fixtures', 'keys']) assert.match(r.stdout(), new RegExp(`\\b${c}\\b`));
});

test('CLI: wfe serve --help and wfe mcp --help list their options and variables', async () => {
  const serve = runCli(['serve', '--help']);
  assert.equal((await serve.exited).code, 0);
  for (const o of ['--host', '--port-us', '--port-eu', '--db', '--fixture', '--standard-budget', '--cheap-budget', '--admin-token', '--no-admin', '--quiet', 'WFE_PORT_US', 'WFE_STANDARD_BUDGET']) {
    assert.ok(serve.stdout().includes(o), o);
  }
  const mcp = runCli(['mcp', '--help']);
  assert.equal((await mcp.exited).code, 0);
  for (const o of ['--key', '--db', '--fixture', 'SVC_API_KEY', '--host', '--port-us', '--port-eu', 'WFE_PORT_US']) assert.ok(mcp.stdout().includes(o), o);
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`CLI: wfe serve --port-us 0 --port-eu 0 prints the banner (addresses, MCP addresses, keys) and exits cleanly on ${signal}`, async () => {
    const r = runCli(['serve', '--port-us', '0', '--port-eu', '0']);
    try {
      const banner = await r.waitFor('Ctrl+C');
      const u = urlsOf(banner);
      assert.notEqual(u.us, u.eu);
      assert.equal(u.usMcp, `${u.us}/mcp`);
      assert.equal(u.euMcp, `${u.eu}/mcp`);
      for (const k of ['acme-admin-key', 'acme-member-key', 'acme-workspace-key', 'acme-revoked-key', 'acme-expired-key', 'acme-unavailable-key', 'globex-admin-key', 'globex-workspace-key']) {
        assert.ok(banner.includes(k), k);
      }
      const res = await fetch(`${u.us}/v3/auth/test`, { headers: { 'X-API-KEY': 'acme-admin-key' } });
      assert.equal(res.status, 200);
      const eu = await fetch(`${u.eu}/v3/auth/test`, { headers: { 'X-API-KEY': 'globex-admin-key' } });
      assert.equal((await eu.json()).teamName, 'Globex GmbH');
    } finally {
      r.child.kill(signal);
    }
    const { code, signal: killed } = await r.exited;
    assert.equal(code, 0, r.stderr());
    assert.equal(killed, null);
    assert.equal(r.stderr(), '');
  });
}

test('CLI: WFE_* variables apply and flags win', async () => {
  const r = runCli(['serve', '--port-eu', '0', '--cheap-budget', '3'], { WFE_PORT_US: '0', WFE_PORT_EU: '1', WFE_STANDARD_BUDGET: '2', WFE_CHEAP_BUDGET: 'abc' });
  try {
    const u = urlsOf(await r.waitFor('Ctrl+C'));
    const std = await fetch(`${u.us}/v3/members`, { headers: { 'X-API-KEY': 'acme-admin-key' } });
    assert.equal(std.headers.get('x-ratelimit-limit'), '2', 'WFE_STANDARD_BUDGET applies');
    const cheap = await fetch(`${u.us}/v3/auth/test`, { headers: { 'X-API-KEY': 'acme-admin-key' } });
    assert.equal(cheap.headers.get('x-ratelimit-limit'), '3', '--cheap-budget wins over WFE_CHEAP_BUDGET (which is never parsed)');
  } finally {
    r.child.kill('SIGTERM');
  }
  assert.equal((await r.exited).code, 0);
});

test('CLI: bad budgets (0, -1, abc, from a flag or WFE_*) are refused with a clear message', async () => {
  const cases: [string[], Record<string, string>, RegExp][] = [
    [['serve', '--standard-budget', '0'], {}, /--standard-budget must be a whole number of 1 or more/],
    [['serve', '--cheap-budget', '-1'], {}, /--cheap-budget/],
    [['serve', '--standard-budget', 'abc'], {}, /--standard-budget must be a whole number of 1 or more/],
    [['serve'], { WFE_STANDARD_BUDGET: 'abc' }, /WFE_STANDARD_BUDGET.*--standard-budget must be a whole number of 1 or more/],
    [['serve'], { WFE_CHEAP_BUDGET: '0' }, /WFE_CHEAP_BUDGET/],
    [['mcp', '--standard-budget', '1.5'], {}, /--standard-budget must be a whole number/],
    [['serve', '--port-us', '70000'], {}, /port/],
  ];
  for (const [args, env, message] of cases) {
    const r = runCli(args, env);
    const { code } = await r.exited;
    assert.notEqual(code, 0, args.join(' '));
    assert.match(r.stderr(), message, args.join(' '));
    assert.equal(r.stdout(), '', 'nothing served');
  }
});

test('CLI: a port in use is reported in the words of the command line, naming --port-us or --port-eu', async () => {
  const first = runCli(['serve', '--port-us', '0', '--port-eu', '0']);
  try {
    const u = urlsOf(await first.waitFor('Ctrl+C'));
    const us = new URL(u.us).port;
    const eu = new URL(u.eu).port;
    const b = runCli(['serve', '--port-us', us, '--port-eu', '0']);
    assert.equal((await b.exited).code, 1);
    assert.match(b.stderr(), new RegExp(`^wfe: port ${us} \\(--port-us, env WFE_PORT_US\\) is already in use on 127\\.0\\.0\\.1 \\(EADDRINUSE\\): .*--port-us <port>`, 'm'));
    const c = runCli(['serve', '--port-us', '0', '--port-eu', eu]);
    assert.equal((await c.exited).code, 1);
    assert.match(c.stderr(), new RegExp(`^wfe: port ${eu} \\(--port-eu, env WFE_PORT_EU\\) is already in use.*--port-eu <port>`, 'm'));
    assert.doesNotMatch(b.stderr() + c.stderr(), /\n\s+at /, 'no stack trace');
  } finally {
    first.child.kill('SIGTERM');
  }
  assert.equal((await first.exited).code, 0);
});

test('CLI: --port-us and --port-eu the same number is refused before listening, naming both', async () => {
  const b = runCli(['serve', '--port-us', '18999', '--port-eu', '18999']);
  assert.equal((await b.exited).code, 1);
  assert.match(b.stderr(), /^wfe: --port-us and --port-eu are both 18999: each region needs its own port/m);
  const env = runCli(['serve'], { WFE_PORT_US: '18998', WFE_PORT_EU: '18998' });
  assert.equal((await env.exited).code, 1);
  assert.match(env.stderr(), /--port-us and --port-eu are both 18998/);
});

test('CLI: a fixture with schema and reference errors reports them all at once', async () => {
  const { mkdtempSync, writeFileSync, readFileSync, rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'wfe-fixture-both-'));
  try {
    const doc = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'demo', 'fixture.json'), 'utf8'));
    doc.workspaces[0].members[3].email = 'not-an-email'; // schema
    doc.workspaces[0].groups[0].members.push(4242); // reference
    doc.workspaces[0].keys[1].key = doc.workspaces[0].keys[0].key; // reference (duplicate)
    doc.workspaces[0].templates = [];
    doc.workspaces[0].checklists = [];
    doc.workspaces[0].standaloneTasks = [];
    doc.workspaces[0].webhooks = [];
    writeFileSync(join(dir, 'fixture.json'), JSON.stringify(doc));
    const r = runCli(['fixture', 'check', dir]);
    assert.equal((await r.exited).code, 1);
    const out = r.stdout() + r.stderr();
    assert.match(out, /workspaces\[0\]\.members\[3\]\.email: not an email address/);
    assert.match(out, /workspaces\[0\]\.groups\[0\]\.members\[\d+\]: names no member/);
    assert.match(out, /workspaces\[0\]\.keys\[1\]\.key: duplicate API key/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('CLI: wfe export and wfe import with nothing name everything they need at once', async () => {
  for (const cmd of ['export', 'import']) {
    const r = runCli([cmd]);
    assert.equal((await r.exited).code, 1);
    assert.match(r.stderr(), new RegExp(`^wfe: wfe ${cmd} needs --db <file> \\(or WFE_DB\\).*; and <(out|in)>: .*For example: wfe ${cmd} --db `, 'm'));
  }
  const onlyDb = runCli(['export', '--db', 'x.sqlite']);
  assert.equal((await onlyDb.exited).code, 1);
  assert.match(onlyDb.stderr(), /^wfe: wfe export needs <out>: the file to write\./m);
});

test('CLI: wfe import of a file that is not SQLite answers in the words of the command line, and changes nothing', async () => {
  const { mkdtempSync, writeFileSync, rmSync, existsSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'wfe-import-text-'));
  try {
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'hello, not a database\n'.repeat(20));
    const r = runCli(['import', '--db', join(dir, 'wfe.sqlite'), text]);
    assert.equal((await r.exited).code, 1);
    assert.equal(r.stderr(), `wfe: ${text} is not a SQLite database file: give a file written by wfe export, wfe backup or GET /_emulator/export.\n`);
    assert.doesNotMatch(r.stderr(), /body|GET \/_emulator\/export answered/);
    assert.ok(!existsSync(join(dir, 'wfe.sqlite')), 'no database file made');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
