// npm run lint:imports: the import graph of src/ has no cycle, and no two folders import
// each other (each folder counted as one node: src/domain/tasks, src/operations/tasks, ...).
// Type-only imports count too: a layer rule is about what a module knows, not only what runs.
// `--report` prints the figures without failing.
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(__dirname, '..', '..', 'src');
// The browser console is its own program (own tsconfig, bundled apart): its imports never
// reach the server's modules, and it is checked by its own typecheck.
const skip = new Set([join(root, 'console', 'ui')]);

function walk(dir: string, out: string[]): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (skip.has(p)) continue;
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function resolveImport(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  for (const c of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(c) && statSync(c).isFile()) return c;
  }
  return undefined;
}

export function importGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of walk(root, [])) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const deps = new Set<string>();
    for (const ref of info.importedFiles) {
      const target = resolveImport(file, ref.fileName);
      if (target && target !== file) deps.add(target);
    }
    graph.set(file, deps);
  }
  return graph;
}

/** Strongly connected components of more than one module (Tarjan). */
export function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index); low.set(v, index); index++;
    stack.push(v); on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do { w = stack.pop()!; on.delete(w); comp.push(w); } while (w !== v);
      if (comp.length > 1) out.push(comp.map((f) => relative(root, f)).sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

// Domain areas and transports count one folder each; deeper folders belong to the one above
// (operations/tasks is part of operations). A file that sits directly in src/, src/domain/
// or src/transports/ is in no folder and counts as a node of its own.
export const grouped = new Set(['domain', 'transports']);
export function folderOf(file: string): string {
  const parts = relative(root, file).split(/[\\/]/);
  const depth = grouped.has(parts[0]) ? 2 : 1;
  return parts.length > depth ? parts.slice(0, depth).join('/') : parts.join('/');
}

/** Pairs of folders where each imports the other, with one import each way as evidence. */
export function mutualFolders(graph: Map<string, Set<string>>): string[] {
  const edges = new Map<string, string>();
  for (const [from, deps] of graph) {
    const a = folderOf(from);
    for (const to of deps) {
      const b = folderOf(to);
      if (a !== b && !edges.has(`${a}|${b}`)) edges.set(`${a}|${b}`, `${relative(root, from)} -> ${relative(root, to)}`);
    }
  }
  const out: string[] = [];
  for (const [key, why] of edges) {
    const [a, b] = key.split('|');
    if (a < b && edges.has(`${b}|${a}`)) out.push(`${a} <-> ${b}: ${why}; ${edges.get(`${b}|${a}`)}`);
  }
  return out.sort();
}

if (require.main === module) {
  const graph = importGraph();
  const cyc = cycles(graph);
  const mutual = mutualFolders(graph);
  for (const c of cyc) process.stdout.write(`cycle (${c.length} modules): ${c.join(', ')}\n`);
  for (const m of mutual) process.stdout.write(`folders import each other: ${m}\n`);
  process.stdout.write(`${graph.size} modules; ${cyc.length} import cycles; ${mutual.length} folder pairs importing each other\n`);
  if (!process.argv.includes('--report') && (cyc.length > 0 || mutual.length > 0)) process.exitCode = 1;
}
