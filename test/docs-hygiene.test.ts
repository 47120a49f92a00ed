// A merge left half-done once shipped its conflict markers in docs/architecture.md; this keeps
// every tracked text file free of them. And docs/architecture.md once said nine things the code
// did not do (issue 36): what it cites is checked here, so a renamed file, a moved function, a
// new memo or a new module-level cache makes the page fail until it says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';

// The repository (not test/helpers/server: this file starts no emulator and loads no src).
const ROOT = join(__dirname, '..');

test('no tracked text file carries merge conflict markers', () => {
  const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(md|ts|tsx|mjs|cjs|js|json|sql|yml|yaml|py|css|html)$/.test(f) || f === '.ci/run');
  assert.ok(files.length > 50, 'git lists the tree');
  const marked = files.filter((f) => /^(<{7} |={7}$|>{7} )/m.test(readFileSync(join(ROOT, f), 'utf8')));
  assert.deepEqual(marked, []);
});

const ARCHITECTURE = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}
const SOURCES = walk(join(ROOT, 'src'));
const TESTS = walk(join(ROOT, 'test'));

/** `src/transports/{web,http,mcp}` → the three paths. */
const expand = (p: string): string[] => {
  const m = /\{([^}]*)\}/.exec(p);
  return m ? m[1].split(',').flatMap((x) => expand(p.slice(0, m.index) + x + p.slice(m.index + m[0].length))) : [p];
};

/**
 * The files or folders a cited path names: as written from the repository root, else under src/
 * (the page writes `transports/http/rest.ts` for src/transports/http/rest.ts); a bare file name
 * (`steps.ts` after src/pipeline/run.ts) names any file of src/ or test/ so called.
 */
function resolvePath(cited: string): string[] {
  const p = cited.replace(/[/*]+$/, '');
  if (!p.includes('/')) {
    const found = [...SOURCES, ...TESTS].filter((f) => basename(f) === p);
    return existsSync(join(ROOT, p)) ? [join(ROOT, p), ...found] : found;
  }
  for (const c of [join(ROOT, p), join(ROOT, 'src', p)]) if (existsSync(c)) return [c];
  return [];
}

/** Paths the page cites: anything under src/, test/, docs/ or bench/, and any name.ext of a source or doc file. */
function citedPaths(text: string): string[] {
  const out = new Set<string>();
  const prefixed = /(?<![\w./@-])(?:src|test|docs|bench)\/[\w./{},*<>-]*[\w*}/>]/g;
  const named = /(?<![\w./@:-])[\w-]+(?:[./][\w-]+)*\.(?:ts|mjs|cjs|js|sql|md|json)\b/g;
  for (const re of [prefixed, named]) for (const m of text.matchAll(re)) out.add(m[0]);
  // Placeholders (src/domain/<area>/) and build output (dist/) are not files of the tree.
  return [...out].filter((p) => !p.includes('<') && !p.startsWith('dist/')).flatMap(expand);
}

test('docs/architecture.md: every file path it cites exists (a path without src/ is read under src/)', () => {
  const cited = citedPaths(ARCHITECTURE);
  assert.ok(cited.length > 80, `${cited.length} paths found: the reader reads the page`);
  for (const p of ['src/request-chain.ts', 'transports/http/rest.ts', 'rows/tasks.ts', 'src/store/memo.ts', 'test/edge.test.ts', 'steps.ts']) assert.ok(cited.includes(p), `${p} is among those read`);
  assert.deepEqual(cited.filter((p) => resolvePath(p).length === 0), []);
});

// The page's "Memos: kept and removed" in docs/performance.md names files too.
test('docs/performance.md "Memos: kept and removed": every file path it cites exists', () => {
  const page = readFileSync(join(ROOT, 'docs/performance.md'), 'utf8');
  const start = page.indexOf('## Memos: kept and removed');
  assert.ok(start >= 0, 'the section is there');
  const end = page.indexOf('\n## ', start + 1);
  const cited = citedPaths(page.slice(start, end < 0 ? undefined : end));
  assert.ok(cited.includes('src/store/memo.ts') && cited.includes('bench/memo-ab.ts'), cited.join(', '));
  assert.deepEqual(cited.filter((p) => resolvePath(p).length === 0), []);
});

/** A source file's path as the page may write it after an identifier: with or without src/, or a bare name. */
const SOURCE_PATH = String.raw`(?:[\w.-]+/)*[\w.-]+\.(?:ts|mjs|cjs|js|sql)\b|src/[\w./-]*[\w]`;
/** `name`, `Class.member`, `fn(args)`, `Type<T>`: what is an identifier to look up; the rest (values, snippets) is not. */
const IDENTIFIER = /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:<[^>]*>)?(?:\([^]*\))?$/;

/**
 * Every backticked identifier the page cites together with a file: "`serveOperation`
 * (transports/http/rest.ts)", "(`checkHostAndOrigin`, transports/http/origin.ts",
 * "src/store/watched-tables.ts `COUNTED`", "`defineWith` in src/operations/define-with.ts".
 */
function citedNames(page: string): { name: string; path: string }[] {
  // Fenced blocks hold no backticked names; a cited pair may be broken across lines.
  const text = page.replace(/^```[^]*?^```/gm, '').replace(/\s+/g, ' ');
  const pairs: { name: string; path: string }[] = [];
  const add = (code: string, path: string) => {
    const m = IDENTIFIER.exec(code.trim());
    if (m && !new RegExp(`^(?:${SOURCE_PATH})$`).test(code)) pairs.push({ name: m[1], path });
  };
  for (const m of text.matchAll(new RegExp(String.raw`\`([^\`]+)\` \(\`?(${SOURCE_PATH})`, 'g'))) add(m[1], m[2]);
  for (const m of text.matchAll(new RegExp(String.raw`\(\`([^\`]+)\`, \`?(${SOURCE_PATH})`, 'g'))) add(m[1], m[2]);
  for (const m of text.matchAll(new RegExp(String.raw`\`([^\`]+)\` in \`?(${SOURCE_PATH})`, 'g'))) add(m[1], m[2]);
  for (const m of text.matchAll(new RegExp(String.raw`(?<![\w./-])(${SOURCE_PATH})\`? \`([^\`]+)\``, 'g'))) add(m[2], m[1]);
  return pairs;
}

/** Whether each part of a dotted name is a word of the file (or of a file of the folder). */
function namedIn(name: string, path: string): boolean {
  const files = resolvePath(path).flatMap((p) => (statSync(p).isDirectory() ? walk(p) : [p]));
  const text = files.map((f) => readFileSync(f, 'utf8')).join('\n');
  return name.split('.').every((part) => new RegExp(`(?<![\\w$])${part.replace(/\$/g, '\\$')}(?![\\w$])`).test(text));
}

test('docs/architecture.md: every identifier it cites with a file is found in that file', () => {
  const pairs = citedNames(ARCHITECTURE);
  assert.ok(pairs.length > 40, `${pairs.length} pairs found: the reader reads the page`);
  const shown = pairs.map((p) => `${p.name} @ ${p.path}`);
  for (const p of ['serveOperation @ transports/http/rest.ts', 'checkHostAndOrigin @ transports/http/origin.ts', 'COUNTED @ src/store/watched-tables.ts', 'defineWith @ src/operations/define-with.ts', 'writeStatus @ rows/tasks.ts']) {
    assert.ok(shown.includes(p), `${p} is among those read`);
  }
  assert.deepEqual(pairs.filter((p) => !namedIn(p.name, p.path)).map((p) => `${p.name} is not in ${p.path}`), []);
});

test('docs/architecture.md: the memos named under "State" are exactly the memos src declares', () => {
  const start = ARCHITECTURE.indexOf('The memos today, by name:');
  const end = ARCHITECTURE.indexOf('docs/performance.md lists what each wins', start);
  assert.ok(start >= 0 && end > start, 'the list is there');
  const listed = [...ARCHITECTURE.slice(start, end).replace(/\s+/g, ' ').matchAll(/`([^`]+)`/g)].map((m) => m[1]).filter((n) => !n.includes('/'));
  const declared: string[] = [];
  let calls = 0;
  for (const f of SOURCES.filter((f) => f.endsWith('.ts') && !f.endsWith(join('store', 'memo.ts')))) {
    const text = readFileSync(f, 'utf8');
    calls += [...text.matchAll(/\b(?:declareMemo|memoized)(?:<[^()]*>)?\(/g)].length;
    for (const m of text.matchAll(/\b(?:declareMemo|memoized)(?:<[^()]*>)?\(\s*\{\s*name:\s*'([^']+)'/g)) declared.push(m[1]);
  }
  // A declaration this reader cannot read (its spec a variable) fails here rather than being skipped.
  assert.equal(declared.length, calls, 'every declareMemo/memoized call names its memo inline');
  assert.ok(declared.length >= 15, declared.join(', '));
  assert.deepEqual([...listed].sort(), [...declared].sort());
});

test('docs/architecture.md "State": every file of src that keeps module-level state is named', () => {
  const start = ARCHITECTURE.indexOf('## State');
  const state = ARCHITECTURE.slice(start, ARCHITECTURE.indexOf('\n## ', start + 1)).replace(/\s+/g, ' ');
  // A module-level `let`, or an empty Map, Set, WeakMap, WeakSet, array or object filled later.
  // The browser console (src/console/ui) is another program, run in a page: not the server's state.
  const STATEFUL = /^(?:export )?(?:let |const \w+(?::[^=]+)? = (?:new (?:Weak)?(?:Map|Set)\b(?:<[^()]*>)?\(\)|\[\]|\{\})(?: as [^;]+)?;)/m;
  const holding = SOURCES.filter((f) => f.endsWith('.ts') && !f.includes(join('console', 'ui')) && STATEFUL.test(readFileSync(f, 'utf8'))).map((f) => relative(ROOT, f).split('\\').join('/'));
  assert.ok(holding.length >= 10, holding.join(', '));
  assert.deepEqual(holding.filter((f) => !state.includes(f)), []);
});
