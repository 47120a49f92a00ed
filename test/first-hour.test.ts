// test:slow: starts `wfe` as a child process (npx, --db, restore, help, banner, signals).
// The first hour of a new user (issue 35 "The first hour"), each stumble as a test: the
// emulator stops with the npx that started it; --db errors name the path and the reason;
// restore refuses a database a running wfe holds; control routes read JSON bodies alike, so
// docs/faults.md works as pasted; a clock move answers after the schedule runs it made due;
// --help marks required arguments, the banner shows forwarding, Ctrl+C says it stopped; the
// invalid-key throttle (spec v3 8) can be turned off for a fuzzing run.
// CLI processes run from source; every wait is on a banner, a port or an exit, never a fixed sleep.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runCli } from './helpers/spine';
import { ROOT, startTestServer, KEYS, DEMO } from './helpers/server';

const work = mkdtempSync(join(tmpdir(), 'wfe-first-hour-'));
after(() => rmSync(work, { recursive: true, force: true }));

const urlOf = (banner: string) => {
  const m = /US\s+REST (http:\/\/127\.0\.0\.1:\d+)\/v3/.exec(banner);
  assert.ok(m, banner);
  return m[1];
};

/** Polls until `url` stops answering (the connection is refused); rejects after `ms`. */
async function untilGone(url: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      await fetch(`${url}/_emulator/health`, { signal: AbortSignal.timeout(2000) });
    } catch {
      return;
    }
    if (Date.now() > end) throw new Error(`${url} still answers ${ms} ms later`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

/** bash -c, asynchronously: the server under test runs in this process and must keep answering. */
const bash = (script: string) =>
  new Promise<{ status: number; stdout: string; stderr: string }>((resolve) =>
    execFile('bash', ['-c', script], { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (e, stdout, stderr) =>
      resolve({ status: e ? ((e as { code?: number }).code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr) }),
    ),
  );

// ---- The emulator stops when the npx that started it dies ----

/**
 * A project whose node_modules/.bin/wfe runs the CLI from source: `npx wfe serve` there makes
 * the tree a user gets (npx -> npm's `sh -c` -> node), with this checkout's code.
 */
function npxProject(): string {
  const dir = join(work, 'npx-project');
  if (existsSync(dir)) return dir;
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'npx-probe', version: '1.0.0', private: true }));
  const tsx = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  const bin = join(dir, 'node_modules', '.bin', 'wfe');
  writeFileSync(bin, `#!/bin/sh\nexport WFE_CLI=1\nexec "${process.execPath}" --import ${tsx} "${join(ROOT, 'src', 'cli.ts')}" "$@"\n`);
  chmodSync(bin, 0o755);
  return dir;
}

for (const signal of ['SIGTERM', 'SIGINT', 'SIGKILL'] as const) {
  test(`first hour: \`npx wfe serve\`, then ${signal} to the npx process alone: the emulator stops too`, { skip: has('npx') ? false : 'no npx on PATH' }, async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const k of Object.keys(env)) if (k.startsWith('WFE_') || k.startsWith('npm_')) delete env[k];
    // Its own process group, so the clean-up below reaches whatever is left.
    const npx = spawn('npx', ['--no-install', 'wfe', 'serve', '--port-us', '0', '--port-eu', '0'], { cwd: npxProject(), env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    npx.stdout.on('data', (c) => (out += c));
    npx.stderr.on('data', (c) => (err += c));
    try {
      const end = Date.now() + 60_000;
      while (!out.includes('Ctrl+C')) {
        assert.ok(Date.now() < end && npx.exitCode === null, `no banner: ${out} ${err}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const url = urlOf(out);
      assert.equal((await fetch(`${url}/_emulator/health`)).status, 200);
      process.kill(npx.pid!, signal);
      await untilGone(url);
      if (signal !== 'SIGKILL') {
        // npx's own output is still read: the emulator says why it stopped.
        const end2 = Date.now() + 10_000;
        while (!/stopped/.test(out) && Date.now() < end2) await new Promise((r) => setTimeout(r, 50));
        assert.match(out, signal === 'SIGINT' ? /Workflow Emulator stopped \(the npm process that started it was interrupted\)/ : /Workflow Emulator stopped \(the npm process that started it exited\)/, out);
      }
    } finally {
      try {
        process.kill(-npx.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

test('first hour: under npm, a shell script that backgrounds wfe and carries on (its own children waking it) does not stop it', async () => {
  const bin = join(npxProject(), 'node_modules', '.bin', 'wfe');
  const env: NodeJS.ProcessEnv = { ...process.env, npm_lifecycle_event: 'test' };
  for (const k of Object.keys(env)) if (k.startsWith('WFE_')) delete env[k];
  // The shell waits for a line (sent once the banner shows), then spawns 30 children in turn.
  const script = `"${bin}" serve --port-us 0 --port-eu 0 < /dev/null & read go; for i in $(seq 1 30); do sleep 0.05; done; echo looped; wait`;
  const sh = spawn('sh', ['-c', script], { env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  sh.stdout.on('data', (c) => (out += c));
  const until = async (re: RegExp) => {
    const end = Date.now() + 60_000;
    while (!re.test(out)) {
      assert.ok(Date.now() < end && sh.exitCode === null, `waiting for ${re}: ${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  try {
    await until(/Ctrl\+C/);
    sh.stdin.write('go\n');
    await until(/looped/);
    assert.equal((await fetch(`${urlOf(out)}/_emulator/health`)).status, 200);
    assert.doesNotMatch(out, /stopped/);
  } finally {
    try {
      process.kill(-sh.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

test('first hour: `wfe serve` started without npm is not tied to its parent (a CI step may background it)', async () => {
  // The test runner is the parent here; no npm_* variable: the watch is off, the server runs on.
  const env = Object.fromEntries(Object.keys(process.env).filter((k) => k.startsWith('npm_')).map((k) => [k, undefined]));
  const r = runCli(['serve', '--port-us', '0', '--port-eu', '0'], env);
  try {
    await r.waitFor('Ctrl+C', 60_000);
  } finally {
    r.child.kill('SIGINT');
  }
  assert.equal((await r.exited).code, 0, r.stderr());
  // Ctrl+C (SIGINT) says it stopped.
  assert.match(r.stdout(), /\nWorkflow Emulator stopped \(SIGINT\)\.\n$/);
});

// ---- --db errors name the path and the reason ----

test('first hour: --db in a directory that does not exist: the path and "does not exist", exit 1 (serve, mcp, seed)', async () => {
  const file = join(work, 'no-such-dir', 'wfe.sqlite');
  for (const args of [['serve', '--port-us', '0', '--port-eu', '0', '--db', file], ['seed', '--db', file], ['mcp', '--db', file]]) {
    const r = runCli(args);
    const { code } = await r.exited;
    assert.equal(code, 1, `${args[0]}: ${r.stdout()}`);
    assert.equal(r.stderr(), `wfe: cannot open the database file ${file} (--db): the directory ${join(work, 'no-such-dir')} does not exist (create it first).\n`, args[0]);
  }
});

test('first hour: --db that is a directory: the path and why', async () => {
  const r = runCli(['serve', '--port-us', '0', '--port-eu', '0', '--db', work]);
  assert.equal((await r.exited).code, 1);
  assert.equal(r.stderr(), `wfe: cannot open the database file ${work} (--db): ${work} is a directory, not a file.\n`);
});

const asNobody = process.getuid?.() === 0 ? (has('setpriv') ? ['setpriv', '--reuid', '65534', '--regid', '65534', '--clear-groups'] : undefined) : [];
test(
  'first hour: --db in a read-only directory: the path and "not writable", exit 1',
  { skip: asNobody ? false : 'running as root without setpriv: root writes into a read-only directory' },
  async () => {
    const dir = join(work, 'read-only');
    mkdirSync(dir, { recursive: true });
    chmodSync(work, 0o755);
    chmodSync(dir, 0o555);
    const file = join(dir, 'wfe.sqlite');
    // As root, the CLI runs as nobody (root ignores the directory's mode).
    const [cmd, ...pre] = [...asNobody!, process.execPath];
    const r = await new Promise<{ code: number; err: string }>((resolve) =>
      execFile(cmd, [...pre, '--import', 'tsx', join(ROOT, 'src', 'cli.ts'), 'serve', '--port-us', '0', '--port-eu', '0', '--db', file], { cwd: ROOT, env: { ...process.env, WFE_CLI: '1', HOME: work }, timeout: 60_000 }, (e, _out, err) =>
        resolve({ code: e ? ((e as { code?: number }).code ?? 1) : 0, err: String(err) }),
      ),
    );
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, new RegExp(`^wfe: cannot open the database file ${file} \\(--db\\): the directory ${dir} is not writable by this user \\(EACCES;`));
  },
);

// ---- restore refuses a database a running server holds ----

test('first hour: wfe restore --force, wfe import and wfe seed --force refuse a file a running wfe serve holds; after Ctrl+C restore works', async () => {
  const db = join(work, 'held.sqlite');
  const backup = join(work, 'held-backup.sqlite');
  const seeded = runCli(['seed', '--db', db]);
  assert.equal((await seeded.exited).code, 0, seeded.stderr());
  const b = runCli(['backup', '--db', db, backup]);
  assert.equal((await b.exited).code, 0, b.stderr());
  const serve = runCli(['serve', '--port-us', '0', '--port-eu', '0', '--db', db]);
  try {
    await serve.waitFor('Ctrl+C', 60_000);
    for (const args of [['restore', '--db', db, '--force', backup], ['import', '--db', db, backup], ['seed', '--db', db, '--force']]) {
      const r = runCli(args);
      assert.equal((await r.exited).code, 1, `${args[0]} was not refused: ${r.stderr()}`);
      assert.match(r.stderr(), new RegExp(`^wfe: ${db} is open in another process \\(a running wfe serve or wfe mcp on it\\): wfe ${args[0]}( --force)? would replace its data under it\\. Stop that process first`), args[0]);
    }
    // Nothing changed under the server.
    const url = urlOf(serve.stdout());
    assert.equal((await fetch(`${url}/v3/auth/test`, { headers: { 'X-API-KEY': KEYS.admin } })).status, 200);
  } finally {
    serve.child.kill('SIGINT');
  }
  assert.equal((await serve.exited).code, 0);
  const r = runCli(['restore', '--db', db, '--force', backup]);
  assert.equal((await r.exited).code, 0, r.stderr());
  assert.match(r.stderr(), /^Restored /);
});

// ---- Control routes read JSON bodies alike; docs/faults.md as pasted ----

test('first hour: every control route that takes a JSON body reads it whatever the Content-Type says (curl -d sends a form type; text/plain)', async () => {
  const s = await startTestServer();
  try {
    const doc = (await s.api(null, 'GET', '/_emulator/openapi.json')).body as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>> };
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).filter(([, op]) => op.requestBody?.content['application/json']).map(([method]) => ({ method: method.toUpperCase(), path })));
    assert.ok(routes.length >= 8, JSON.stringify(routes));
    for (const r of routes) {
      const path = r.path.replace(/\{[^}]+\}/g, 'x');
      for (const headers of [{ 'Content-Type': 'application/x-www-form-urlencoded' }, { 'Content-Type': 'text/plain' }]) {
        const a = await s.api(null, r.method, path, '{"__probe":1}', headers);
        assert.doesNotMatch(a.text, /Content-Type/, `${r.method} ${r.path} with ${headers['Content-Type']}: ${a.status} ${a.text}`);
        assert.ok(a.status < 500, `${r.method} ${r.path}: ${a.status}`);
      }
    }
    // The fault rule of docs/faults.md, sent as curl -d sends it: added.
    const added = await s.api(null, 'POST', '/_emulator/faults', '{"path":"/v3/**","status":429,"probability":0.2,"seed":7}', { 'Content-Type': 'application/x-www-form-urlencoded' });
    assert.equal(added.status, 201, added.text);
  } finally {
    await s.close();
  }
});

test('first hour: the docs/faults.md block runs as pasted (real curl), each line answered 2xx', { skip: has('curl') ? false : 'no curl on PATH' }, async () => {
  const md = readFileSync(join(ROOT, 'docs', 'faults.md'), 'utf8');
  const block = /```sh\n([^]*?)\n```/.exec(md)![1];
  const s = await startTestServer();
  try {
    const lines = block.replace(/\\\n\s*/g, ' ').split('\n').filter((l) => l.startsWith('curl '));
    assert.equal(lines.length, 7);
    for (const line of lines) {
      const cmd = line.replace(/#.*$/, '').replace(/localhost:8787/g, s.us);
      const out = await bash(`${cmd} -w '\\n%{http_code}'`);
      const status = Number(out.stdout.trim().split('\n').at(-1));
      assert.ok(status >= 200 && status < 300, `${line}\n${out.stdout}`);
    }
    // What the lines made: four rules added, fault-2 removed, then all removed.
    assert.deepEqual((await s.api(null, 'GET', '/_emulator/faults')).body.items, []);
  } finally {
    await s.close();
  }
});

// ---- A clock move answers after the schedule runs it made due ----

test('first hour: the README "Schedules" block pasted whole shows the first run Started, not Scheduled', { skip: has('curl') ? false : 'no curl on PATH' }, async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Schedules'));
  const block = /```sh\n([^]*?)\n```/.exec(section)![1];
  const s = await startTestServer();
  try {
    const script = block.replace(/http:\/\/127\.0\.0\.1:8787/g, s.us).replace(/localhost:8787/g, s.us);
    const out = await bash(script);
    assert.equal(out.status, 0, out.stderr);
    // The last line's answer: the runs of the schedule.
    const runs = JSON.parse(out.stdout.slice(out.stdout.lastIndexOf('{"items"'))) as { items: { status: string; checklist?: { status: string } }[] };
    assert.equal(runs.items[0].status, 'Started', out.stdout);
    assert.notEqual(runs.items[0].checklist?.status, 'Scheduled');
  } finally {
    await s.close();
  }
});

test('first hour: PUT /_emulator/clock and POST /_emulator/clock/advance answer after the runs they made due have started', async () => {
  const s = await startTestServer();
  try {
    await s.api(null, 'PUT', '/_emulator/clock', { now: '2030-01-07T07:30:00Z', frozen: true });
    const created = await s.api(KEYS.admin, 'POST', '/v3/schedules', { name: 'Daily', templateKey: DEMO.expense, timeZone: 'UTC', startDateTime: '2030-01-07T08:00:00', recurrence: { frequency: 'Daily', count: 3 } });
    assert.equal(created.status, 201, created.text);
    const id = created.body.id;
    const started = async () => ((await s.api(KEYS.admin, 'GET', `/v3/schedules/${id}/runs`)).body.items as { status: string }[]).filter((r) => r.status === 'Started').length;
    await s.api(null, 'POST', '/_emulator/clock/advance', { hours: 1 });
    assert.equal(await started(), 1, 'advance: the 08:00 run started before the answer');
    await s.api(null, 'PUT', '/_emulator/clock', { now: '2030-01-09T09:00:00Z' });
    assert.equal(await started(), 3, 'set: the 8th and 9th started before the answer');
  } finally {
    await s.close();
  }
});

// ---- --help, the banner, Ctrl+C ----

test('first hour: wfe --help and the commands\' own help mark <out> and <in> required', async () => {
  const r = runCli(['--help']);
  assert.equal((await r.exited).code, 0);
  assert.match(r.stdout(), /export \[options\] <out>/);
  assert.match(r.stdout(), /import \[options\] <in>/);
  for (const [cmd, arg] of [['export', '<out>'], ['import', '<in>']]) {
    const h = runCli([cmd, '--help']);
    assert.equal((await h.exited).code, 0);
    assert.match(h.stdout(), new RegExp(`^Usage: wfe ${cmd} \\[options\\] ${arg}$`, 'm'));
  }
});

test('first hour: the banner says when --forward-events is on (flag or WFE_FORWARD_EVENTS), and not otherwise', async () => {
  for (const [args, env, shown] of [
    [['--forward-events', 'http://127.0.0.1:9/events'], {}, 'http://127.0.0.1:9/events'],
    [[], { WFE_FORWARD_EVENTS: 'http://127.0.0.1:9/env' }, 'http://127.0.0.1:9/env'],
    [[], {}, undefined],
  ] as [string[], Record<string, string>, string | undefined][]) {
    const r = runCli(['serve', '--port-us', '0', '--port-eu', '0', ...args], env);
    try {
      const banner = await r.waitFor('Ctrl+C', 60_000);
      if (shown) assert.match(banner, new RegExp(`^  Forwarding every event of every workspace to ${shown} \\(--forward-events\\)$`, 'm'));
      else assert.doesNotMatch(banner, /Forwarding/);
    } finally {
      r.child.kill('SIGTERM');
    }
    assert.equal((await r.exited).code, 0);
    assert.match(r.stdout(), /Workflow Emulator stopped \(SIGTERM\)\.\n$/);
  }
});

// ---- The invalid-key throttle off for a fuzzing run ----

const badKeys = async (url: string, n: number) => {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await fetch(`${url}/v3/auth/test`, { headers: { 'X-API-KEY': `not-a-key-${i}` } })).status);
  return statuses;
};

test('first hour: spec v3 8 throttle: 25 invalid keys from one address: the 21st is 429 by default; never with --no-key-throttle or WFE_NO_KEY_THROTTLE=1', async () => {
  for (const [args, env, off] of [
    [[], {}, false],
    [['--no-key-throttle'], {}, true],
    [[], { WFE_NO_KEY_THROTTLE: '1' }, true],
  ] as [string[], Record<string, string>, boolean][]) {
    const r = runCli(['serve', '--port-us', '0', '--port-eu', '0', ...args], env);
    try {
      const banner = await r.waitFor('Ctrl+C', 60_000);
      if (off) assert.match(banner, /Invalid-key throttle off \(--no-key-throttle\)/);
      else assert.doesNotMatch(banner, /throttle off/);
      const statuses = await badKeys(urlOf(banner), 25);
      if (off) assert.deepEqual([...new Set(statuses)], [401], `${args} ${JSON.stringify(env)}`);
      else assert.deepEqual([statuses.slice(0, 20).every((x) => x === 401), statuses.slice(20).every((x) => x === 429)], [true, true], JSON.stringify(statuses));
    } finally {
      r.child.kill('SIGTERM');
    }
    await r.exited;
  }
});

test('first hour: the library takes keyThrottle: false as well (and an isolated instance inherits it)', async () => {
  const s = await startTestServer({ keyThrottle: false });
  try {
    assert.deepEqual([...new Set(await badKeys(s.us, 25))], [401]);
    const inst = await s.api(null, 'POST', '/_emulator/instances', {});
    assert.equal(inst.status, 201, inst.text);
    assert.deepEqual([...new Set(await badKeys(inst.body.baseUrls.US, 25))], [401]);
    await s.api(null, 'DELETE', `/_emulator/instances/${inst.body.id}`);
  } finally {
    await s.close();
  }
});

// ---- The CI step: README's workflow against action.yml ----

test('first hour: the README workflow uses the Action as action.yml declares it: its inputs, a stop step with if: always(), scripts that exist', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const yaml = /```yaml\n(# \.github\/workflows\/contract\.yml[^]*?)\n```/.exec(readme)![1];
  const action = readFileSync(join(ROOT, 'action.yml'), 'utf8');
  const inputs = [...action.slice(action.indexOf('\ninputs:'), action.indexOf('\noutputs:')).matchAll(/^ {2}([\w-]+):$/gm)].map((m) => m[1]);
  assert.deepEqual(inputs, ['stop', 'executable', 'package', 'args', 'port-us', 'port-eu', 'timeout']);
  const uses = [...yaml.matchAll(/uses: (<owner>\/wfe@\S+)/g)];
  assert.equal(uses.length, 2, 'a start step and a stop step');
  for (const m of yaml.matchAll(/with: \{ ([^}]*) \}/g)) {
    for (const k of m[1].split(',').map((p) => p.split(':')[0].trim())) if (k !== 'node-version') assert.ok(inputs.includes(k), `with: ${k} is no input of action.yml`);
  }
  assert.match(yaml, /if: always\(\)\n\s+uses: <owner>\/wfe@main\n\s+with: \{ stop: true \}/);
  assert.match(yaml, /\$WFE_US_URL/);
  // Each input reaches the script under the name start.sh reads.
  const start = readFileSync(join(ROOT, '.ci', 'action', 'start.sh'), 'utf8');
  for (const [, name] of action.matchAll(/^ {8}(WFE_INPUT_\w+): \$\{\{ inputs\.[\w-]+ \}\}$/gm)) assert.ok(start.includes(`\${${name}`), `start.sh does not read ${name}`);
  for (const script of action.matchAll(/"\$GITHUB_ACTION_PATH\/(\.ci\/action\/\w+\.sh)"/g)) {
    assert.ok(existsSync(join(ROOT, script[1])), script[1]);
    assert.ok(statSync(join(ROOT, script[1])).mode & 0o111, `${script[1]} is not executable`);
  }
  // The outputs and the variables start.sh writes.
  for (const k of ['us-url', 'eu-url', 'pid', 'log']) assert.match(start, new RegExp(`echo "${k}=`));
  for (const k of ['WFE_US_URL', 'WFE_EU_URL', 'WFE_PID', 'WFE_LOG']) assert.match(start, new RegExp(`echo "${k}=`));
});
