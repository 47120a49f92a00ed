// `npm test` and `npm run test:slow` (README "The two commands"): compiles the TypeScript once for
// the run, then hands the test files to node:test with the compiled code preloaded
// (test/helpers/compiled.cjs), a concurrency taken from the machine's cores, and the files that
// took longest last time started first.
//
//   node test/run.mjs                 every test/*.test.ts not marked slow
//   node test/run.mjs --slow          only the files marked slow
//   node test/run.mjs --all           both
//   node test/run.mjs test/a.test.ts  these files, marked or not
//
// A file is marked slow by a line of its own, `// test:slow: <why>`, near its top: it starts
// processes of its own (the CLI, crash restarts, the packed tarball, the single executable) whose
// start-ups dominate its time. A new test/*.test.ts is picked up by the glob and is fast unless
// marked. Arguments starting with `--test` (reporter, name pattern, only) pass through to node;
// WFE_TEST_CONCURRENCY sets how many files run at once.
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { compileOptions } = require('./helpers/compile-options.cjs');

const SLOW_MARK = /^\/\/ test:slow:/m;

const args = process.argv.slice(2);
const mode = args.includes('--all') ? 'all' : args.includes('--slow') ? 'slow' : 'fast';
const passThrough = args.filter((a) => a.startsWith('--test'));
const named = args.filter((a) => !a.startsWith('--'));

const runs = join(ROOT, 'dist', 'test-runs');
const timesFile = join(runs, 'durations.json');
const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
};
const lastTimes = readJson(timesFile);

const isSlow = (file) => SLOW_MARK.test(readFileSync(file, 'utf8').slice(0, 4000));
const files =
  named.length > 0
    ? named.map((f) => join(process.cwd(), f))
    : readdirSync(join(ROOT, 'test'))
        .filter((n) => n.endsWith('.test.ts'))
        .sort()
        .map((n) => join(ROOT, 'test', n))
        .filter((f) => mode === 'all' || (mode === 'slow') === isSlow(f))
        // Longest first (a file not seen before counts as long): the run ends when its last file does.
        .map((f) => ({ f, ms: lastTimes[relative(ROOT, f)] ?? Infinity }))
        .sort((a, b) => b.ms - a.ms)
        .map(({ f }) => f);

// Two files per core: most test files spend much of their time waiting (on child processes,
// sockets, the emulator's timers), so one per core leaves the cores idle.
const concurrency = Number(process.env.WFE_TEST_CONCURRENCY) || Math.max(2, availableParallelism() * 2);

function walk(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

// Each run compiles into a folder of its own, so two runs side by side (or a run beside a build)
// never read each other's files; a folder left by a killed run is removed by the next.
for (const old of existsSync(runs) ? readdirSync(runs).filter((n) => /^\d+$/.test(n)) : []) {
  let alive = false;
  try {
    process.kill(Number(old), 0);
    alive = true;
  } catch {
    alive = false;
  }
  if (!alive) rmSync(join(runs, old), { recursive: true, force: true });
}
const out = join(runs, String(process.pid));
mkdirSync(out, { recursive: true });
const cleanUp = () => rmSync(out, { recursive: true, force: true });

const started = performance.now();
const built = await build({
  ...compileOptions,
  entryPoints: [...walk(join(ROOT, 'src')), ...walk(join(ROOT, 'test')).filter((f) => !f.startsWith(join(ROOT, 'test', 'package')))],
  outbase: ROOT,
  outdir: out,
  bundle: false,
  sourcemap: 'external',
  write: false,
});
// Each file is compiled under its source's own name (test/helpers/compiled.cjs), so its map names
// the source by base name (esbuild names it from the output folder) and travels inline.
const maps = new Map(built.outputFiles.filter((f) => f.path.endsWith('.map')).map((f) => [f.path.slice(0, -4), f.text]));
for (const f of built.outputFiles) {
  if (f.path.endsWith('.map')) continue;
  const map = JSON.parse(maps.get(f.path));
  map.sources = map.sources.map((s) => basename(s));
  mkdirSync(dirname(f.path), { recursive: true });
  writeFileSync(f.path, `${f.text}//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString('base64')}\n`);
}
const preload = join(out, 'preload.cjs');
writeFileSync(preload, `require(${JSON.stringify(join(ROOT, 'test', 'helpers', 'compiled.cjs'))}).install(__dirname);\n`);
const compiledIn = Math.round(performance.now() - started);

process.stdout.write(`# ${files.length} test files (${mode}), ${concurrency} at once; compiled in ${compiledIn} ms\n`);
if (files.length === 0) {
  cleanUp();
  process.exit(0);
}

// The reporter you see (node's default unless given), then the one that records each file's time.
const reporters = passThrough.filter((a) => a.startsWith('--test-reporter=')).length;
const destinations = passThrough.filter((a) => a.startsWith('--test-reporter-destination=')).length;
const shown = reporters === 0 ? [`--test-reporter=${process.stdout.isTTY ? 'spec' : 'tap'}`, '--test-reporter-destination=stdout'] : Array(Math.max(0, reporters - destinations)).fill('--test-reporter-destination=stdout');
const thisRun = join(out, 'durations.json');
const child = spawn(
  process.execPath,
  [
    '--require',
    preload,
    '--enable-source-maps',
    '--test',
    `--test-concurrency=${concurrency}`,
    ...passThrough,
    ...shown,
    `--test-reporter=${join(ROOT, 'test', 'helpers', 'file-times.mjs')}`,
    `--test-reporter-destination=${thisRun}`,
    ...files.map((f) => relative(process.cwd(), f)),
  ],
  // WFE_TEST_PRELOAD: a test starts the CLI from the same compiled code (test/helpers/server.ts `fromSource`).
  { stdio: 'inherit', env: { ...process.env, WFE_TEST_PRELOAD: preload } },
);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => {
  const times = { ...readJson(timesFile) };
  for (const [file, ms] of Object.entries(readJson(thisRun))) times[relative(ROOT, file)] = Math.round(ms);
  const tmp = `${timesFile}.${process.pid}`;
  writeFileSync(tmp, JSON.stringify(times, null, 1));
  renameSync(tmp, timesFile);
  cleanUp();
  process.exit(code ?? (signal ? 1 : 0));
});
