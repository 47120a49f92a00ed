// The single executable (README "Single executable"): Node's own SEA support, which
// works offline (pkg and @yao-pkg/pkg download patched Node binaries and fail here).
//   1. esbuild re-bundles dist/wfe.cjs with better-sqlite3's JavaScript inside it
//      (a SEA can `require` only built-in modules);
//   2. `node --experimental-sea-config` writes the blob: that script, its V8 code
//      cache, and the better-sqlite3 native addon as an asset (src/store/native.ts
//      writes it to a content-addressed temp file and dlopens it at run time);
//   3. a copy of this node binary is stripped and the blob injected with postject
//      under the SEA sentinel fuse.
// Start-up (measured in `npm run bench`, docs/architecture.md): the blob's main script is
// a small launcher. `wfe --version` and `wfe --help` are answered from text printed by
// the bundle at build time (only when commander would print the same: 80 columns or no
// terminal); everything else compiles the bundle, carried as an asset, with a V8 code
// cache taken at build time after a real start and first request (tools/sea-cache.cjs), so
// the functions start-up and the first answer run are not compiled again.
import { build } from 'esbuild';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, chmodSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** The CommonJS wrapper the launcher and tools/sea-cache.cjs both put around the bundle (the code cache is of this exact text). */
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

  const script = join(work, 'wfe-sea.cjs');
  await build({
    entryPoints: ['dist/wfe.cjs'],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile: script,
    // The addon travels as a SEA asset; the JS `bindings` lookup is never reached.
    define: { 'process.env.WFE_CLI': '"1"' },
    logLevel: 'warning',
  });

  const addon = require.resolve('better-sqlite3/build/Release/better_sqlite3.node');
  const cache = join(work, 'wfe.cache');
  const gen = spawnSync(process.execPath, ['tools/sea-cache.cjs', script, addon, cache, WRAP_HEAD, WRAP_TAIL], { encoding: 'utf8', env: cleanEnv() });
  if (gen.status !== 0) throw new Error(`sea-cache failed: ${gen.stdout}${gen.stderr}`);
  const fixed = {};
  for (const flags of [['--version', '-V'], ['--help', '-h']]) {
    const r = spawnSync(process.execPath, [script, flags[0]], { encoding: 'utf8', env: cleanEnv() });
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
  execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: ['ignore', 'ignore', 'inherit'] });

  mkdirSync('dist', { recursive: true });
  rmSync(out, { force: true });
  copyFileSync(process.execPath, out);
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
  console.log(`build-sea: ${out} (${mb} MB, linux-x64, node ${process.version}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return out;
}
