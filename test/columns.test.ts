// Each table's columns are declared once (src/store/columns.ts); this compares every declaration
// with the migrated schema (PRAGMA table_info), so a column added on one side only fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDb, type Db } from '../src/store/open';
import { declaredTables, insertOf, tasksTable, type Columns, type Table } from '../src/store/columns';

interface Info { name: string; type: string; notnull: number; dflt_value: string | null; pk: number }

/** What differs between a declaration and the table as migrated, one line each. */
function mismatches(db: Db, t: Table<Columns>): string[] {
  const info = db.prepare<[], Info>(`PRAGMA table_info(${t.name})`).all();
  if (info.length === 0) return [`${t.name}: no such table`];
  const out: string[] = [];
  const declared = Object.keys(t.columns);
  for (const n of declared) if (!info.some((c) => c.name === n)) out.push(`${t.name}.${n}: declared, not in the schema`);
  for (const c of info) {
    const d = t.columns[c.name];
    if (!d) {
      out.push(`${t.name}.${c.name}: in the schema, not declared`);
      continue;
    }
    if (d.type !== c.type) out.push(`${t.name}.${c.name}: type ${d.type}, schema ${c.type}`);
    if (d.primaryKey !== (c.pk === 1)) out.push(`${t.name}.${c.name}: primary key differs`);
    if (!d.primaryKey && d.nullable !== (c.notnull === 0)) out.push(`${t.name}.${c.name}: NULL allowed differs`);
    // PRAGMA gives a default as SQL: a string quoted.
    const dflt = d.default === undefined ? null : typeof d.default === 'string' ? `'${d.default.replace(/'/g, "''")}'` : String(d.default);
    if (dflt !== c.dflt_value) out.push(`${t.name}.${c.name}: DEFAULT ${dflt}, schema ${c.dflt_value}`);
  }
  return out;
}

test('every column declaration matches PRAGMA table_info of the migrated schema: names, types, NULL, defaults', () => {
  const db = openDb();
  assert.ok(declaredTables.length > 0);
  assert.deepEqual(declaredTables.flatMap((t) => mismatches(db, t)), []);
  db.close();
});

test('a column added to the schema and not declared is a mismatch (the comparison can fail)', () => {
  const db = openDb();
  db.exec('ALTER TABLE tasks ADD COLUMN added_later INTEGER NOT NULL DEFAULT 1');
  assert.deepEqual(mismatches(db, tasksTable), ['tasks.added_later: in the schema, not declared']);
  db.close();
});

test('the one INSERT of a task fills what it is not given with the schema default or NULL', () => {
  const db = openDb();
  db.prepare("INSERT INTO workspaces (key, name, region, created_at) VALUES ('w', 'W', 'US', 0)").run();
  const ins = insertOf(tasksTable);
  const id = Number(db.prepare(ins.sql).run(ins.values({ key: 'k', workspace_id: 1, name: 'N', created_at: 5 })).lastInsertRowid);
  const row = db.prepare('SELECT * FROM tasks WHERE id = ?').get(id) as Record<string, unknown>;
  assert.deepEqual(
    { position: row.position, is_heading: row.is_heading, status: row.status, due_is_manual: row.due_is_manual, grid_halted: row.grid_halted, created_at: row.created_at },
    { position: 0, is_heading: 0, status: null, due_is_manual: 0, grid_halted: 0, created_at: 5 },
  );
  db.close();
});
