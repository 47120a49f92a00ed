// The installable package (issue 16 item 2): `npm pack`, installed into a fresh
// temporary project offline, answers `npx wfe serve`, and the library imports in ES
// modules and CommonJS with its types. Runs in .ci/run (WFE_PACKAGE_TEST=1) after the
// build, not in `npm test`: `npm pack` rebuilds dist/, which test/sea.test.ts also builds.
//
// Offline: the project's node_modules is first given the packages this checkout already
// has for wfe's dependencies (test/helpers/dep-closure.ts), so npm resolves everything
// from disk (`--offline`; the npm cache holds tarballs from `npm ci`, not the registry
// documents a range needs). better-sqlite3 comes with the addon built here: npm 11 does not
// run dependencies' install scripts until allowed, and that script would download a
// prebuilt binary or compile for minutes.
// test:slow: `npm pack`, an offline install and `npx wfe serve` in a temporary project.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './helpers/server';
import { bannerOf } from './helpers/spine';
import { dependencyClosure } from './helpers/dep-closure';

const enabled = process.env.WFE_PACKAGE_TEST === '1';
let dir: string;
let app: string;
let setupError: string | undefined;

// Without NODE_TEST_CONTEXT: a nested `node --test` would otherwise report to this runner, not print.
const { NODE_TEST_CONTEXT: _ctx, ...ENV } = process.env;
let packOutput = '';
const sh = (cmd: string, args: string[], cwd: string, timeout = 180_000) => spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout, env: { ...ENV, npm_config_update_notifier: 'false' } });

before(() => {
  if (!enabled) return;
  dir = mkdtempSync(join(tmpdir(), 'wfe-package-'));
  const packed = sh('npm', ['pack', '--pack-destination', dir, '--json'], ROOT);
  if (packed.status !== 0) return void (setupError = `npm pack failed: ${packed.stderr.slice(-2000)}`);
  packOutput = packed.stderr;
  const tarball = join(dir, JSON.parse(packed.stdout)[0].filename);
  app = join(dir, 'app');
  cpSync(join(ROOT, 'test', 'package'), app, { recursive: true });
  for (const rel of dependencyClosure(ROOT)) cpSync(join(ROOT, rel), join(app, rel), { recursive: true, dereference: true, filter: (src) => !src.slice(src.indexOf(rel) + rel.length).includes('/node_modules/') });
  const installed = sh('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], app);
  if (installed.status !== 0) setupError = `npm install --offline failed: ${installed.stderr.slice(-2000)}`;
});
after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function skip(t: { skip(m: string): void }): boolean {
  if (!enabled) return (t.skip('set WFE_PACKAGE_TEST=1 (.ci/run does, after npm run build)'), true);
  if (setupError) throw new Error(setupError);
  return false;
}

test('16.2 package: the tarball holds the bin, the CLI bundle and the library (ESM, CJS, types), nothing else of the checkout', (t) => {
  if (skip(t)) return;
  const pkg = JSON.parse(readFileSync(join(app, 'node_modules', 'wfe', 'package.json'), 'utf8'));
  assert.equal(pkg.private, undefined);
  assert.deepEqual(pkg.bin, { wfe: 'bin/wfe.js' });
  const files = sh('find', ['.', '-type', 'f'], join(app, 'node_modules', 'wfe')).stdout.trim().split('\n').sort();
  assert.deepEqual(files, ['./README.md', './bin/wfe.js', './dist/lib/index.cjs', './dist/lib/index.d.mts', './dist/lib/index.d.ts', './dist/lib/index.mjs', './dist/wfe.cjs', './package.json']);
});

test('issue 22 package hygiene: the packed package.json has no scripts (no install script for consumers), the checkout keeps its own, and the build prints no esbuild warning', (t) => {
  if (skip(t)) return;
  const pkg = JSON.parse(readFileSync(join(app, 'node_modules', 'wfe', 'package.json'), 'utf8'));
  assert.equal(pkg.scripts, undefined);
  assert.equal(pkg.devDependencies, undefined);
  assert.equal(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.prepare, 'node build.mjs --bundle-only');
  assert.ok(!existsSync(join(ROOT, '.package.json.checkout')), 'postpack restored the checkout package.json');
  assert.doesNotMatch(packOutput, /\[WARNING\]|should be marked as external/);
});

test('16.2 package: startEmulator imports and runs in an ES module', (t) => {
  if (skip(t)) return;
  const r = sh(process.execPath, ['esm.mjs'], app, 60_000);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^esm 200 Acme Corp http:\/\/127\.0\.0\.1:\d+ 421$/m);
});

test('16.2 package: startEmulator requires and runs in CommonJS', (t) => {
  if (skip(t)) return;
  const r = sh(process.execPath, ['cjs.cjs'], app, 60_000);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^cjs 200 Acme Corp 503$/m);
});

test('16.2 package: the types check a consumer in ESM and CommonJS (tsc, node16 resolution)', (t) => {
  if (skip(t)) return;
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const common = ['--noEmit', '--strict', '--module', 'node16', '--moduleResolution', 'node16', '--target', 'es2022', '--lib', 'es2022,esnext.disposable', '--types', 'node', '--typeRoots', join(ROOT, 'node_modules', '@types')];
  const r = sh(process.execPath, [tsc, ...common, 'consumer.mts', 'consumer.cts'], app, 120_000);
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('16.2 package: npx wfe serve runs in the project and answers', async (t) => {
  if (skip(t)) return;
  const child = spawn('npx', ['--offline', 'wfe', 'serve', '--port-us', '0', '--port-eu', '0'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  try {
    const us = /US\s+REST (\S+)\/v3/.exec(await bannerOf(child, /US\s+REST \S+\/v3/))![1];
    const res = await fetch(`${us}/v3/auth/test`, { headers: { 'X-API-KEY': 'acme-admin-key' } });
    assert.equal(res.status, 200);
    assert.equal((await (await fetch(`${us}/_emulator/health`)).json()).status, 'ok');
  } finally {
    // npx runs wfe as a child: end the whole process group we started.
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      /* already gone */
    }
  }
});

test('16.2 package: the README CI job (start in the background, wait for /_emulator/health, test, stop) works', async (t) => {
  if (skip(t)) return;
  const { createServer } = await import('node:net');
  const free = () =>
    new Promise<number>((resolve) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const port = (srv.address() as { port: number }).port;
        srv.close(() => resolve(port));
      });
    });
  const r = spawnSync('bash', ['ci-job.sh'], { cwd: app, encoding: 'utf8', timeout: 120_000, env: { ...ENV, PORT_US: String(await free()), PORT_EU: String(await free()) } });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /# pass 2\n/);
  const pid = Number(readFileSync(join(app, 'wfe.pid'), 'utf8'));
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (let i = 0; i < 50 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(alive(), false, 'the emulator was stopped');
});

test('16.2 package: the library test of the README runs with node:test in the project', (t) => {
  if (skip(t)) return;
  const r = sh(process.execPath, ['--test', 'readme.test.mjs'], app, 120_000);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /# pass 2\n/);
  assert.match(r.stdout, /# fail 0\n/);
});
