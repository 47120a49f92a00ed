// Each memo's declaration (src/store/memo.ts) against the migrated schema: every table and column
// it says it reads exists (a misspelt table would silently fall back to every row written, a
// misspelt column would leave its reads uncounted), names are unique (verify mode names the memo
// that failed), and every bound is positive. What a memo reads beyond its declaration is verify
// mode's to catch (test/memo-verify.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator } from '../src/library';
import { Memo, declaredMemos } from '../src/store/memo';
import { COUNTED } from '../src/store/watched-tables';
import { openDb } from '../src/store/open';

test('every declared memo reads tables and columns the schema has, each counted, under a unique name, with a positive bound', async () => {
  // Loading the emulator loads every module that declares a memo.
  const emu = await startEmulator({ listen: false, fixture: 'none' });
  await emu.close();
  const specs = declaredMemos();
  const names = specs.map((s) => s.name);
  for (const expected of ['read answers', 'task row', 'checklist task states', 'resolved API key', 'data set records', 'tasks grid totals and pages']) assert.ok(names.includes(expected), `${expected} is declared`);
  assert.equal(new Set(names).size, names.length, `unique names: ${names.join(', ')}`);
  const db = openDb();
  try {
    const columnsOf = (table: string) => (db.prepare(`PRAGMA main.table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
    for (const w of COUNTED) for (const c of w.columns ?? []) assert.ok(columnsOf(w.table).includes(c), `counted ${w.table}.${c} exists`);
    for (const spec of specs) {
      assert.ok((spec.max ?? 1000) > 0, spec.name);
      if (spec.reads === 'any') continue;
      for (const r of spec.reads) {
        const read = typeof r === 'string' ? { table: r, columns: undefined } : r;
        const columns = columnsOf(read.table);
        assert.ok(columns.length > 0, `${spec.name}: table ${read.table} exists`);
        for (const c of read.columns ?? []) assert.ok(columns.includes(c), `${spec.name}: column ${read.table}.${c} exists`);
      }
      // A declared table no counter covers makes every write drop the memo: correct, but a silent cost.
      assert.equal(new Memo(db, spec, { verify: false }).followsEveryWrite, false, `${spec.name}: each table it reads is counted (store/watched-tables.ts COUNTED)`);
    }
  } finally {
    db.close();
  }
});
