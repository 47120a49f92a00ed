// The single executable (README "Single executable"): Node's own SEA support, which
// works offline (pkg and @yao-pkg/pkg download patched Node binaries and fail here).
//   1. esbuild re-bundles dist/wfe.cjs with better-sqlite3's JavaScript inside it
//      (a SEA can `require` only built-in modules);
//   2. `node --experimental-sea-config` writes the blob: that script, its V8 code
//      cache, and the better-sqlite3 native addon as an asset (src/store/native.ts
//      writes it to a content-addressed temp file and dlopens it at run time);
//   3. a copy of this node binary is stripped and the blob injected with postject
//      under the SEA sentinel fuse.
import { build } from 'esbuild';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, chmodSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

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
  const blob = join(work, 'sea-prep.blob');
  const config = join(work, 'sea-config.json');
  writeFileSync(
    config,
    JSON.stringify(
      {
        main: script,
        output: blob,
        disableExperimentalSEAWarning: true,
        useCodeCache: true,
        assets: { 'better_sqlite3.node': addon },
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
