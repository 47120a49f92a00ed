// The command line (EMULATOR.md "Command line"): help, the serve banner, clean
// shutdown on SIGTERM and SIGINT, WFE_* variables (flags win), bad budgets refused.
// The CLI runs from source: node --import tsx src/cli.ts with WFE_CLI=1.
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

test('CLI: a port in use is reported, not a stack trace', async () => {
  const first = runCli(['serve', '--port-us', '0', '--port-eu', '0']);
  try {
    const u = urlsOf(await first.waitFor('Ctrl+C'));
    const port = new URL(u.us).port;
    const b = runCli(['serve', '--port-us', port, '--port-eu', '0']);
    const { code } = await b.exited;
    assert.equal(code, 1);
    assert.match(b.stderr(), /^wfe: .*EADDRINUSE/m);
  } finally {
    first.child.kill('SIGTERM');
  }
  assert.equal((await first.exited).code, 0);
});
