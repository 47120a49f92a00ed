// Each table's columns are declared once (src/store/columns.ts, declarations in src/store/tables/);
// this compares the declared tables with the migrated schema's tables, and every declaration with
// PRAGMA table_info, so a table or a column added on one side only fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDb, type Db } from '../src/store/open';
import { insertOf, type Columns, type Table } from '../src/store/columns';
import { declaredTables } from '../src/store/tables';
import { tasksTable } from '../src/store/tables/tasks';

interface Info { name: string; type: string; notnull: number; dflt_value: string | null; pk: number }

/** What differs between a declaration and the table as migrated, one line each. */
function mismatches(db: Db, t: Table<Columns>): string[] {
  const info = db.prepare<[], Info>(`PRAGMA table_info(${t.name})`).all();
  if (info.length === 0) return [`${t.name}: no such table`];
  const out: string[] = [];
  const declared = Object.keys(t.columns);
  for (const n of declared) if (!info.some((c) => c.name === n)) out.push(`${t.name}.${n}: declared, not in the schema`);
  for (const n of t.primaryKey) if (!declared.includes(n)) out.push(`${t.name}: primary key names ${n}, not declared`);
  for (const c of info) {
    const d = t.columns[c.name];
    if (!d) {
      out.push(`${t.name}.${c.name}: in the schema, not declared`);
      continue;
    }
    if (d.type !== c.type) out.push(`${t.name}.${c.name}: type ${d.type}, schema ${c.type}`);
    // PRAGMA's pk: the column's place in the PRIMARY KEY (1, 2, ...), 0 when not in it.
    const pk = t.primaryKey.indexOf(c.name) + 1;
    if (pk !== c.pk) out.push(`${t.name}.${c.name}: primary key place ${pk}, schema ${c.pk}`);
    // The row id (col.id()) is the table's only key column, an INTEGER: SQLite numbers it.
    if (d.rowId && !(c.pk === 1 && c.type === 'INTEGER' && info.filter((i) => i.pk > 0).length === 1)) out.push(`${t.name}.${c.name}: declared the row id, not the schema's INTEGER PRIMARY KEY`);
    // A key column the schema leaves without NOT NULL (INTEGER PRIMARY KEY, `name TEXT PRIMARY
    // KEY`) is never written NULL here: it is declared NOT NULL, as the row type reads it.
    const schemaNullable = c.notnull === 0 && c.pk === 0;
    if (d.nullable !== schemaNullable) out.push(`${t.name}.${c.name}: NULL ${d.nullable ? '' : 'not '}allowed, schema ${schemaNullable ? '' : 'not '}allowed`);
    // PRAGMA gives a default as SQL: a string quoted.
    const dflt = d.default === undefined ? null : typeof d.default === 'string' ? `'${d.default.replace(/'/g, "''")}'` : String(d.default);
    if (dflt !== c.dflt_value) out.push(`${t.name}.${c.name}: DEFAULT ${dflt}, schema ${c.dflt_value}`);
  }
  return out;
}

/** Tables of the schema (SQLite's own sqlite_* left out) without a declaration, and declarations without a table. */
function tableMismatches(db: Db): string[] {
  const inSchema = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").all() as { name: string }[]).map((r) => r.name);
  const declared = declaredTables.map((t) => t.name);
  return [
    ...inSchema.filter((n) => !declared.includes(n)).map((n) => `${n}: in the schema, not declared`),
    ...declared.filter((n) => !inSchema.includes(n)).map((n) => `${n}: declared, not in the schema`),
    ...declared.filter((n, i) => declared.indexOf(n) !== i).map((n) => `${n}: declared twice`),
  ];
}

test('every table of the migrated schema is declared, and every declaration is a table of it', () => {
  const db = openDb();
  assert.deepEqual(tableMismatches(db), []);
  db.close();
});

test('a table added to the schema and not declared is a mismatch (the comparison can fail)', () => {
  const db = openDb();
  db.exec('CREATE TABLE added_later (id INTEGER PRIMARY KEY)');
  assert.deepEqual(tableMismatches(db), ['added_later: in the schema, not declared']);
  db.close();
});

test('every column declaration matches PRAGMA table_info of the migrated schema: names, types, keys, NULL, defaults', () => {
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

test('a primary key declared otherwise than the schema is a mismatch', () => {
  const db = openDb();
  const swapped: Table<Columns> = { ...declaredTables.find((t) => t.name === 'group_members')!, primaryKey: ['member_id', 'group_id'] };
  assert.deepEqual(mismatches(db, swapped), ['group_members.group_id: primary key place 2, schema 1', 'group_members.member_id: primary key place 1, schema 2']);
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

test('the one INSERT gives a column passed as undefined its schema default, not NULL (a NOT NULL DEFAULT column would refuse NULL)', () => {
  const db = openDb();
  db.prepare("INSERT INTO workspaces (key, name, region, created_at) VALUES ('w', 'W', 'US', 0)").run();
  const ins = insertOf(tasksTable);
  const id = Number(db.prepare(ins.sql).run(ins.values({ key: 'k', workspace_id: 1, name: 'N', created_at: 5, position: undefined, is_heading: undefined })).lastInsertRowid);
  const row = db.prepare('SELECT position, is_heading FROM tasks WHERE id = ?').get(id) as Record<string, unknown>;
  assert.deepEqual({ ...row }, { position: 0, is_heading: 0 });
  db.close();
});
