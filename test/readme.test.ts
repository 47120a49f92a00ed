// The README, tested (issue 22): every fenced block is run or skipped with a reason written here.
// Shell blocks: each `curl` line runs with real curl against a started emulator (ports rewritten),
// and the comment beside it is its promise (`# 400 VALIDATION_ERROR, field memberId`, `# 421
// WRONG_REGION`, `echoed back`); without one, a 2xx. `npx wfe` lines run the CLI from source.
// Code blocks run with `wfe` resolved to the library's source: ESM, CommonJS, node:test, and the
// vitest and jest examples through a small shim of their API onto node:test. A block this file
// does not know fails, naming itself: add a handler or a skip with its reason (SKIPS below).
// The keys table must match `wfe keys`, the serve options table `wfe serve --help`, and the
// single executable's start-up figure the latest bench file.
// test:slow: runs every README block as pasted: curl, `npx wfe` and node child processes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromSource, startTestServer, ROOT, type TestServer } from './helpers/server';
import { runCli } from './helpers/spine';
import { fixtureKeys, keyActsAs } from '../src/fixtures/keys';

interface Block {
  lang: string;
  code: string;
  line: number;
  heading: string;
}

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

function blocks(md: string): Block[] {
  const out: Block[] = [];
  const lines = md.split('\n');
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    if (/^#{1,4} /.test(lines[i])) heading = lines[i].replace(/^#+ /, '');
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    out.push({ lang: open[1], code: body.join('\n'), line: start + 1, heading });
  }
  return out;
}

/**
 * Blocks and commands not run here, each with why (matched by a distinctive piece of text).
 * The reason is what a reader of a failure needs: where the same thing is tested instead.
 */
const SKIPS: { match: string; reason: string }[] = [
  { match: 'podman ', reason: 'the container (README "Container"): .ci/container.sh builds the image as written here; test/container.test.ts runs the run block as pasted when podman and the image are present (required there)' },
  { match: '.github/workflows/contract.yml', reason: 'a GitHub Actions workflow using this repository\'s action.yml: .ci/action/test.sh runs its start and stop scripts as the runner does, in an empty project (.ci/run); test/first-hour.test.ts checks the workflow against action.yml' },
  { match: 'git clone <this repository>', reason: 'install from a tarball or a path: test/package.test.ts packs, installs offline and runs the examples there (.ci/run)' },
  { match: 'npm install --save-dev', reason: 'install from a tarball or a path: test/package.test.ts (.ci/run)' },
  { match: 'npm run build && cp dist/wfe', reason: 'builds the single executable and copies it to /usr/local/bin: test/sea.test.ts runs it (.ci/run)' },
  { match: 'npx -y -p openapi-typescript@7 -p typescript@5', reason: 'fetches both from the npm registry: test/openapi-clients.test.ts and test/contract-refusal-bodies.test.ts run the installed openapi-typescript (TypeScript 5) on the same document; the pins are checked there' },
  { match: 'npx wfe backup --db /srv', reason: 'paths of a self-hosted server: test/store tests run wfe backup and restore on temporary files; here the flags are checked against --help' },
  { match: 'npx wfe restore --db /srv', reason: 'as backup above; flags checked against --help' },
  { match: 'npm ci', reason: 'installs the checkout: .ci/run starts from npm ci' },
  { match: 'def wfe(wfe_url)', reason: 'pytest: examples/python runs it in CI (.ci/run); the shell block beside it runs here' },
];
const skipOf = (text: string) => SKIPS.find((s) => text.includes(s.match));

let s: TestServer;
let work: string;
const ran = new Set<number>();

before(async () => {
  s = await startTestServer();
  work = mkdtempSync(join(tmpdir(), 'wfe-readme-'));
});
after(async () => {
  await s?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** README addresses → the started emulator's. */
const rewrite = (cmd: string) =>
  cmd
    .replace(/http:\/\/127\.0\.0\.1:8787/g, s.us)
    .replace(/http:\/\/127\.0\.0\.1:8788/g, s.eu)
    .replace(/(?<![\w/])localhost:8787/g, s.us)
    .replace(/(?<![\w/]):8788\b/g, `:${new URL(s.eu).port}`);

/** Shell commands of a block: continuation lines joined, whole-line comments dropped; the trailing comment kept apart. */
function commands(code: string): { cmd: string; note: string }[] {
  const joined = code.replace(/\\\n\s*/g, ' ').replace(/\n\s+(?=["'{])/g, '');
  const out: { cmd: string; note: string }[] = [];
  for (const raw of joined.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    // A trailing comment: `#` after whitespace, outside quotes.
    let q: string | null = null;
    let cut = -1;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (q) {
        if (c === q) q = null;
      } else if (c === "'" || c === '"') q = c;
      else if (c === '#' && /\s/.test(line[i - 1] ?? '')) {
        cut = i;
        break;
      }
    }
    out.push(cut < 0 ? { cmd: line, note: '' } : { cmd: line.slice(0, cut).trim(), note: line.slice(cut + 1).trim() });
  }
  return out;
}

const sh = (script: string, env: Record<string, string> = {}) =>
  new Promise<{ code: number; out: string; err: string }>((resolve) => {
    execFile('bash', ['-c', script], { cwd: work, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024, timeout: 60_000 }, (e, out, err) =>
      resolve({ code: e ? ((e as { code?: number }).code ?? 1) : 0, out: String(out), err: String(err) }),
    );
  });

/** Runs one curl line; checks what its comment promises. Returns the parsed body (for <nextCursor>). */
async function curl(cmd: string, note: string, vars: string[], last: { body?: { nextCursor?: string } }, where: string) {
  let c = rewrite(cmd);
  if (c.includes('<nextCursor>')) {
    assert.ok(last.body?.nextCursor, `${where}: the line before gave no nextCursor`);
    c = c.replace('<nextCursor>', last.body!.nextCursor!);
  }
  const r = await sh(`${vars.join('; ')}${vars.length ? '; ' : ''}${c} -w '\\n__STATUS__%{http_code}'`);
  assert.equal(r.code, 0, `${where}: curl failed: ${r.err}`);
  const m = /\n?__STATUS__(\d{3})$/.exec(r.out);
  assert.ok(m, `${where}: no status: ${r.out.slice(-300)}`);
  const status = Number(m[1]);
  const text = r.out.slice(0, m.index);
  const bodyText = / -si? /.test(` ${c} `) && /^HTTP\//.test(text) ? text.slice(text.indexOf('\r\n\r\n') + 4) : text;
  let body: { nextCursor?: string; error?: { code: string; field?: string; url?: string } } | undefined;
  try {
    body = JSON.parse(bodyText);
  } catch {
    body = undefined;
  }
  const promised = /^(\d{3})\s+([A-Z_]+)?/.exec(note);
  if (promised) {
    assert.equal(status, Number(promised[1]), `${where}: ${cmd}\n${text.slice(0, 500)}`);
    if (promised[2]) assert.equal(body?.error?.code, promised[2], `${where}: ${text.slice(0, 500)}`);
    const field = /field (\w+)/.exec(note);
    if (field) assert.equal(body?.error?.field, field[1], where);
    if (/url → :8788/.test(note)) assert.ok(body?.error?.url?.startsWith(s.eu), where);
  } else {
    assert.ok(status >= 200 && status < 300, `${where}: ${cmd} answered ${status}: ${text.slice(0, 500)}`);
  }
  if (/echoed back/.test(note)) {
    const id = /X-Request-Id: ([^'"\s]+)/.exec(cmd)![1];
    assert.match(text, new RegExp(`^x-request-id: ${id}\\r?$`, 'im'), where);
  }
  return body;
}

/** `npx wfe ...`: the CLI from source; servers get free ports and the started emulator's address. */
async function wfe(cmd: string, where: string) {
  const args = cmd.replace(/^npx wfe\s+/, '').match(/'[^']*'|"[^"]*"|\S+/g)!.map((a) => a.replace(/^['"]|['"]$/g, ''));
  const help = spawnSync(process.execPath, fromSource([args[0], '--help']), { cwd: ROOT, encoding: 'utf8', env: { ...process.env, WFE_CLI: '1' } });
  for (const flag of args.filter((a) => a.startsWith('--'))) assert.ok(help.stdout.includes(flag), `${where}: wfe ${args[0]} --help has no ${flag}`);
  if (skipOf(cmd)) return;
  if (args[0] === 'serve') {
    const run = runCli([...args, '--port-us', '0', '--port-eu', '0']);
    try {
      await run.waitFor('Ctrl+C');
    } finally {
      run.child.kill('SIGTERM');
    }
    assert.equal((await run.exited).code, 0, `${where}: ${run.stderr()}`);
    return;
  }
  if (args[0] === 'listen') {
    const run = runCli([...args, '--url', s.us]);
    try {
      for (let i = 0; i < 300 && !/Subscribed/.test(run.stderr()); i++) await new Promise((r) => setTimeout(r, 100));
      assert.match(run.stderr(), /Subscribed \S+: task_completed/, `${where}: ${run.stderr()}`);
    } finally {
      run.child.kill('SIGTERM');
    }
    await run.exited;
    return;
  }
  const run = runCli(args);
  assert.equal((await run.exited).code, 0, `${where}: ${run.stderr()}`);
}

async function shellBlock(b: Block) {
  await s.api(null, 'PUT', '/_emulator/clock', { now: new Date().toISOString(), frozen: false });
  await s.api(null, 'POST', '/_emulator/reset');
  const vars: string[] = [];
  let last: { body?: { nextCursor?: string } } = {};
  for (const { cmd, note } of commands(b.code)) {
    const where = `README line ${b.line} (${b.heading})`;
    const skip = skipOf(cmd);
    if (/^[A-Z_]+=\S+(;\s*[A-Z_]+=\S+)*;?$/.test(cmd) && !cmd.includes('$(')) {
      vars.push(cmd.replace(/;$/, ''));
    } else if (/^[A-Z_]+=\$\(/.test(cmd)) {
      // NAME=$(...) [; NAME2=$(...)]: run once (ports rewritten); its values stand for the lines after.
      const names = [...cmd.matchAll(/(?:^|;\s*)([A-Z_]+)=/g)].map((m) => m[1]);
      const r = await sh(`${vars.join('; ')}${vars.length ? '; ' : ''}${rewrite(cmd)}; ${names.map((n) => `printf '%s\\0' "$${n}"`).join('; ')}`);
      assert.equal(r.code, 0, `${where}: ${cmd}: ${r.err}`);
      const values = r.out.split('\0');
      names.forEach((n, i) => {
        assert.ok(values[i], `${where}: ${n} is empty after ${cmd}`);
        vars.push(`${n}='${values[i].replace(/'/g, "'\\''")}'`);
      });
    } else if (cmd.startsWith('curl ')) {
      last = { body: (await curl(cmd, note, vars, last, where)) as { nextCursor?: string } };
    } else if (cmd.startsWith('npx wfe ')) {
      await wfe(cmd, where);
    } else if (cmd.startsWith('npm pkg set allowScripts.')) {
      // A consumer's package.json: run in an empty project; what it writes is what wfe's own package.json allows.
      const r = await sh(`mkdir -p consumer && cd consumer && echo '{"name":"consumer","version":"1.0.0"}' > package.json && ${cmd} && cat package.json`);
      assert.equal(r.code, 0, `${where}: ${cmd}: ${r.err}`);
      const allowed = JSON.parse(r.out).allowScripts as Record<string, boolean>;
      const own = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).allowScripts as Record<string, boolean>;
      for (const [name, v] of Object.entries(allowed)) assert.equal(own[name], v, `${where}: wfe's package.json does not allow ${name}`);
      assert.ok(Object.keys(allowed).length > 0, where);
    } else if (!skip) {
      assert.fail(`${where}: a shell command this test does not know: ${cmd}\nRun it (add a handler) or add it to SKIPS in test/readme.test.ts with the reason.`);
    }
  }
}

/** Code blocks run with 'wfe' resolved to the library's source. */
const LIB = join(ROOT, 'src', 'library', 'index.ts');
const VITEST_SHIM = `import { test as t, before, after, beforeEach as be } from 'node:test';
import assert from 'node:assert/strict';
export const test = t; export const beforeAll = before; export const afterAll = after; export const beforeEach = be;
export const expect = (a) => ({ toBe: (b) => assert.strictEqual(a, b), toEqual: (b) => assert.deepStrictEqual(a, b) });
`;
const JEST_PRELUDE = `const { test, before: beforeAll, after: afterAll, beforeEach } = require('node:test');
const assert = require('node:assert/strict');
const expect = (a) => ({ toBe: (b) => assert.strictEqual(a, b), toEqual: (b) => assert.deepStrictEqual(a, b) });
`;

function codeFile(b: Block): { file: string; asTest: boolean } {
  const n = b.line;
  let code = b.code.replace(/from 'wfe'/g, `from '${LIB}'`).replace(/require\('wfe'\)/g, `require('${LIB}')`);
  if (code.includes("from 'vitest'")) {
    writeFileSync(join(work, 'vitest-shim.mjs'), VITEST_SHIM);
    code = code.replace(/from 'vitest'/, "from './vitest-shim.mjs'");
    const file = join(work, `block-${n}.mts`);
    writeFileSync(file, code);
    return { file, asTest: true };
  }
  if (/require\(/.test(code) && /\bbeforeAll\(/.test(code)) {
    const file = join(work, `block-${n}.cjs`);
    writeFileSync(file, JEST_PRELUDE + code);
    return { file, asTest: true };
  }
  const esm = /^import /m.test(code);
  const file = join(work, `block-${n}.${b.lang === 'ts' ? (esm ? 'mts' : 'cts') : esm ? 'mjs' : 'cjs'}`);
  writeFileSync(file, code);
  return { file, asTest: code.includes("from 'node:test'") };
}

/** The child's own test runner must report in TAP, not to this runner (NODE_TEST_CONTEXT). */
const childEnv = () => {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return env;
};

async function codeBlock(b: Block) {
  const { file, asTest } = codeFile(b);
  const args = ['--import', 'tsx', ...(asTest ? ['--test', '--test-reporter=tap'] : []), file];
  const r = await new Promise<{ code: number; out: string; err: string }>((resolve) =>
    execFile(process.execPath, args, { cwd: ROOT, timeout: 120_000, env: childEnv() }, (e, out, err) => resolve({ code: e ? ((e as { code?: number }).code ?? 1) : 0, out: String(out), err: String(err) })),
  );
  assert.equal(r.code, 0, `README line ${b.line} (${b.heading}): ${r.out.slice(-1500)}\n${r.err.slice(-1500)}`);
  if (asTest) {
    assert.match(r.out, /^# pass [1-9]/m, `README line ${b.line}: no test passed`);
    assert.match(r.out, /^# fail 0$/m);
  }
  return r.out;
}

function jsonBlock(b: Block) {
  const cfg = JSON.parse(b.code);
  const server = cfg.mcpServers['workflow-emulator'];
  assert.equal(server.command, 'node');
  assert.match(server.args[0], /\/bin\/wfe\.js$/);
  assert.ok(existsSync(join(ROOT, 'bin', 'wfe.js')));
  assert.equal(server.args[1], 'mcp');
  assert.ok(/^acme-/.test(server.env.SVC_API_KEY));
}

const all = blocks(README);

test('issue 22: the README has the blocks this test knows how to run', () => {
  assert.ok(all.length >= 15, `${all.length} blocks`);
  for (const b of all) assert.ok(['sh', 'js', 'ts', 'json', 'yaml'].includes(b.lang) || skipOf(b.code),  `README line ${b.line}: a block of language "${b.lang}": teach test/readme.test.ts to run it or skip it with a reason`);
});

for (const b of all) {
  const name = `README line ${b.line} (${b.heading}): ${b.lang} block "${b.code.split('\n')[0].slice(0, 60)}"`;
  const skip = b.lang === 'yaml' || b.lang === 'python' || (b.lang === 'sh' && commands(b.code).every((c) => skipOf(c.cmd) && !c.cmd.startsWith('npx wfe'))) ? skipOf(b.code)?.reason : undefined;
  test(name, skip ? { skip } : {}, async () => {
    ran.add(b.line);
    if (b.lang === 'sh') return shellBlock(b);
    if (b.lang === 'js' || b.lang === 'ts') {
      const out = await codeBlock(b);
      if (b.code.includes('main();')) assert.match(out, /^200 Acme Corp$/m, 'the CommonJS example prints what its comment says');
      return;
    }
    if (b.lang === 'json') return jsonBlock(b);
    assert.fail(`README line ${b.line}: no handler for ${b.lang}`);
  });
}

test('issue 22: the README keys table is what `wfe keys` prints', () => {
  const start = README.indexOf('| Key (`X-API-KEY`)');
  const table = README.slice(start, README.indexOf('\n\n', start));
  const rows = table
    .split('\n')
    .slice(2)
    .filter((l) => l.startsWith('| `'))
    .map((l) => l.split('|').map((c) => c.trim()));
  const keys = fixtureKeys('demo');
  assert.deepEqual(
    rows.map((r) => [r[1].replace(/`/g, ''), r[2], r[3]]),
    keys.map((k) => [k.key, k.workspace, keyActsAs(k)]),
  );
});

test('issue 22: the README serve options table names every option of `wfe serve --help`', () => {
  const help = spawnSync(process.execPath, fromSource(['serve', '--help']), { cwd: ROOT, encoding: 'utf8', env: { ...process.env, WFE_CLI: '1' } }).stdout;
  const flags = [...help.matchAll(/^\s+(--[\w-]+)/gm)].map((m) => m[1]).filter((f) => f !== '--help');
  assert.ok(flags.length >= 10);
  const table = README.slice(README.indexOf('| Option | Variable | Default |'), README.indexOf('On start it prints one banner'));
  for (const f of flags) assert.ok(table.includes(`\`${f}`), `${f} is missing from the README's wfe serve table`);
});

test('issue 22: the single executable start-up figures in the README are the latest bench file\'s, with its date', () => {
  const files = readdirSync(join(ROOT, 'bench', 'results')).filter((f) => f.endsWith('.json')).sort();
  const latest = files.at(-1)!;
  const run = JSON.parse(readFileSync(join(ROOT, 'bench', 'results', latest), 'utf8'));
  const row = run.rows.find((r: { name: string }) => r.name.startsWith('Single executable: start to first answered request'));
  const section = README.slice(README.indexOf('## Single executable'), README.indexOf('## Benchmark'));
  assert.ok(section.includes(`answers its first request ${row.p50} ms`), `README "Single executable" should quote ${row.p50} ms from ${latest}`);
  assert.ok(section.includes(`${row.p99} ms`));
  assert.ok(section.includes(`bench/results/${latest}`));
  assert.ok(section.includes(run.when.slice(0, 10)));
  assert.ok(README.includes(`Latest run, ${run.when.slice(0, 10)}`), 'the Benchmark section names the latest run');
  const size = /executable (\d+(?:\.\d+)?) MB/.exec(row.note ?? '');
  if (size) assert.ok(section.includes(`about ${Math.round(Number(size[1]))} MB`), `the size the bench measured: ${size[1]} MB`);
});

test('issue 22: every README block was run or skipped with a reason', () => {
  const skipped = all.filter((b) => !ran.has(b.line)).map((b) => ({ line: b.line, reason: ['yaml', 'sh', 'python'].includes(b.lang) ? skipOf(b.code)?.reason : undefined }));
  for (const k of skipped) assert.ok(k.reason, `README line ${k.line} neither ran nor has a reason`);
});
