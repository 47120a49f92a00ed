// Bundles the CLI into dist/wfe.cjs (always) and, without --bundle-only, builds the
// single executable dist/wfe with Node's own SEA support (see README "Single executable").
import { build } from 'esbuild';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const bundleOnly = process.argv.includes('--bundle-only');
if (!existsSync('src/cli.ts')) process.exit(0);

// Files the running emulator reads travel inside the bundle, and only those: the schema,
// the fixtures, and the one doc it serves (the authoring guide: src/domain/schema/guide.ts).
function walk(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n).replace(/\\/g, '/');
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}
const assets = {};
for (const p of ['schema.sql', ...walk('fixtures'), 'docs/template-document.md']) assets[p] = readFileSync(p, 'utf8');

await build({
  entryPoints: ['src/cli.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: 'dist/wfe.cjs',
  external: ['better-sqlite3'],
  define: { __WFE_ASSETS__: JSON.stringify(assets) },
  logLevel: 'warning',
});

if (!bundleOnly) {
  const { buildSea } = await import('./build-sea.mjs');
  await buildSea();
}
