// better-sqlite3's addon. Inside a single executable the addon travels as a SEA
// asset: it is written once to a content-addressed temp path (atomic rename) and
// loaded with process.dlopen; the module object is passed as `nativeBinding`
// because a path string does not work inside a SEA. Outside a SEA, undefined lets
// better-sqlite3 find its own build (node_modules or beside dist/).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let cached: unknown;

export function loadNativeBinding(): unknown {
  if (cached !== undefined) return cached;
  let sea: { isSea(): boolean; getRawAsset(name: string): ArrayBuffer } | undefined;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- node:sea exists only on Node 20.12+; a require in try is the optional load
    sea = require('node:sea');
  } catch {
    sea = undefined;
  }
  if (!sea || !sea.isSea()) {
    cached = undefined;
    return undefined;
  }
  const bytes = Buffer.from(sea.getRawAsset('better_sqlite3.node'));
  const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const dir = join(tmpdir(), 'wfe-native');
  const path = join(dir, `better_sqlite3-${digest}.node`);
  if (!existsSync(path)) {
    mkdirSync(dir, { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, bytes);
    renameSync(tmp, path);
  }
  const mod = { exports: {} as unknown };
  process.dlopen(mod as unknown as NodeJS.Module, path);
  cached = mod.exports;
  return cached;
}
