// The installed packages a package.json's dependencies need (transitively), found
// the way Node resolves them: each name looked up in node_modules from the
// requiring package's directory upwards. Used to give a temporary project the
// packages this checkout already has, so `npm install --offline` needs no registry.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

function findPackage(name: string, fromDir: string, root: string): string | undefined {
  let dir = fromDir;
  for (;;) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root || dirname(dir) === dir) return undefined;
    dir = dirname(dir);
  }
}

/** Directories (relative to root) of every package in the production dependency closure. */
export function dependencyClosure(root: string): string[] {
  const realRoot = realpathSync(root);
  const seen = new Set<string>();
  const queue: string[] = [realRoot];
  const out: string[] = [];
  while (queue.length) {
    const dir = queue.shift()!;
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const deps = { ...(pkg.dependencies ?? {}), ...(pkg.optionalDependencies ?? {}) };
    for (const name of Object.keys(deps)) {
      const found = findPackage(name, dir, realRoot);
      if (!found) {
        if (pkg.optionalDependencies?.[name]) continue;
        throw new Error(`${name} (needed by ${pkg.name}) is not installed`);
      }
      if (seen.has(found)) continue;
      seen.add(found);
      out.push(relative(realRoot, found));
      queue.push(found);
    }
  }
  return out.sort();
}
