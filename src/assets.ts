// Files that ship inside the executable (schema.sql, fixtures/, docs the MCP server
// serves). build.mjs embeds them with esbuild's `define`; from source (tests, tsx)
// they are read from the package directory.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

declare const __WFE_ASSETS__: Record<string, string> | undefined;

const embedded: Record<string, string> | undefined =
  typeof __WFE_ASSETS__ === 'undefined' ? undefined : __WFE_ASSETS__;

export const packageRoot = resolve(__dirname, embedded ? '..' : '..');

export function readAsset(rel: string): string {
  if (embedded) {
    const text = embedded[rel];
    if (text === undefined) throw new Error(`asset not found: ${rel}`);
    return text;
  }
  return readFileSync(join(packageRoot, rel), 'utf8');
}

/** A text only the build makes (build.mjs; src/prebuilt.ts): undefined from source. */
export const builtAsset = (rel: string): string | undefined => embedded?.[rel];

export function listAssets(dir: string): string[] {
  if (embedded) return Object.keys(embedded).filter((k) => k.startsWith(dir + '/')).sort();
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(join(packageRoot, rel))) {
      const r = `${rel}/${name}`;
      if (statSync(join(packageRoot, r)).isDirectory()) walk(r);
      else out.push(r);
    }
  };
  try {
    walk(dir);
  } catch {
    return [];
  }
  return out.sort();
}
