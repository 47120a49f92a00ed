// Per-table change counts: for each table (or the columns of one) a memo may declare it reads
// (store/memo.ts), a count of the rows this connection wrote to it, moved by temporary triggers
// that call back into the process (a SQL function, wfe_rows_written). A memo is good until the
// counts of its declared tables move, so completing a task leaves the parsed template documents,
// the access facts and the resolved API keys standing.
// The counts only grow, like total_changes(): a write rolled back leaves its count moved over
// rows that are as they were, and the rollback count (store/change-signal.ts) drops what was
// computed in between. Commits by another connection are seen through PRAGMA data_version, as
// for every memo. The triggers are created when openDb opens the connection, outside any
// transaction (a trigger created inside one would vanish with its rollback); a connection
// opened otherwise has none, and its memos fall back to the whole-connection count,
// total_changes().
// Counting in the process, not in a temporary table: a trigger writing a table made every
// watched row written go through a statement journal of the temp database (measured: a
// generated workspace of 5,000 checklists took 2.6 s to write against 1.4 s without).
import type Database from 'better-sqlite3';
import { TASK_ROW_COLUMNS } from './tables/tasks';
export { TASK_ROW_COLUMNS };

import { onConnection } from './on-connection';

type Db = Database.Database;

/** A table a memo reads: every insert and delete counts, and updates of `columns` (all columns when absent). */
export interface Watched {
  table: string;
  columns?: readonly string[];
}

/** What a memo declares it reads: a table (every column) or some columns of one. */
export type Read = string | Watched;

/**
 * The tables counted one by one. A memo declaring a table (or columns) not covered here falls
 * back to every row written (store/memo.ts): correct, only recomputed more often. `tasks` is
 * counted on the columns that say which task it is and which checklist it is on (a status write
 * moves it not);
 * what else of a task is read is counted per row (below).
 */
export const COUNTED: readonly Watched[] = [
  { table: 'api_keys' },
  { table: 'workspaces' },
  { table: 'members' },
  { table: 'template_versions' },
  { table: 'template_permissions' },
  { table: 'group_members' },
  { table: 'task_assignees' },
  { table: 'tasks', columns: ['id', 'key', 'checklist_id', 'attached_checklist_id'] },
  { table: 'field_values' },
  { table: 'files' },
  { table: 'checklists' },
  { table: 'templates', columns: ['id', 'key'] },
  { table: 'webhooks' },
  { table: 'comments' },
  { table: 'data_set_records' },
];

/** The counter covering a declared read: its table, and every column read among those it counts. */
export function counterOf(read: Read): number | undefined {
  const r = typeof read === 'string' ? { table: read } : read;
  const i = COUNTED.findIndex((c) => c.table === r.table && (!c.columns || (r.columns !== undefined && r.columns.every((x) => c.columns!.includes(x)))));
  return i < 0 ? undefined : i;
}

/**
 * Every trigger: an insert and a delete trigger per table, moving each counter on it (a bit
 * mask: one call per row written), and an update trigger per counter (on its columns).
 */
const TRIGGERS = (() => {
  const masks = new Map<string, number>();
  COUNTED.forEach((c, i) => masks.set(c.table, (masks.get(c.table) ?? 0) | (1 << i)));
  const rowEvents = [...masks].flatMap(([table, mask]) =>
    (
      [
        ['insert', 'INSERT'],
        ['delete', 'DELETE'],
      ] as const
    ).map(([event, on]) => {
      const name = `rows_written_${table}_${event}`;
      return { name, sql: `CREATE TEMP TRIGGER ${name} AFTER ${on} ON main.${table} BEGIN SELECT wfe_rows_written(${mask}); END` };
    }),
  );
  const updates = COUNTED.map((c, i) => {
    const name = `rows_written_${c.table}_update_${i}`;
    const on = c.columns ? `UPDATE OF ${c.columns.join(', ')}` : 'UPDATE';
    return { name, sql: `CREATE TEMP TRIGGER ${name} AFTER ${on} ON main.${c.table} BEGIN SELECT wfe_rows_written(${1 << i}); END` };
  });
  return [...rowEvents, ...updates];
})();

// Counted per row, not per table: what a checklist's tasks are, in order, with their kinds and
// statuses (rows/tasks.ts taskStatesOfChecklist), per checklist; and each task row, per task. A
// status write to one checklist then leaves what the others' tasks are remembered
// (store/memo.ts, per task or per checklist), and its writer can hand over the state it left.
// One trigger per event on tasks calls one function with everything both counts need: the old
// and new row ids and checklists, and whether the row's state (key, kind, status, order,
// checklist) really changed.
const STATE_COLUMNS = ['id', 'key', 'is_heading', 'is_stop', 'status', 'position', 'checklist_id'] as const;
const STATE_CHANGED = STATE_COLUMNS.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ');

// The update trigger watches a task row's columns only (TASK_ROW_COLUMNS, tables/tasks.ts): a stop
// task's status write, which moves the grid's own flags on the tasks behind it, leaves their
// remembered rows standing.
const TASK_TRIGGERS = (
  [
    ['insert', 'INSERT', 'NEW.id, NULL, NEW.checklist_id, NULL, 1'],
    ['delete', 'DELETE', 'OLD.id, NULL, OLD.checklist_id, NULL, 1'],
    ['update', `UPDATE OF ${TASK_ROW_COLUMNS.join(', ')}`, `OLD.id, NEW.id, OLD.checklist_id, NEW.checklist_id, ${STATE_CHANGED}`],
  ] as const
).map(([event, on, args]) => {
  const name = `tasks_written_${event}`;
  return { name, sql: `CREATE TEMP TRIGGER ${name} AFTER ${on} ON main.tasks BEGIN SELECT wfe_tasks_written(${args}); END` };
});

const ALL_TRIGGERS = [...TRIGGERS, ...TASK_TRIGGERS];

/**
 * Rows written per key (a checklist's task states, or a task's row) on a connection.
 * `generation` moves when the counts start again (a bulk write with the triggers set aside, or
 * too many keys kept): a value remembered under an earlier generation is stale whatever its
 * key's count says.
 */
export interface KeyedWrites {
  readonly byKey: Map<number, number>;
  generation: number;
}

/** Keys whose counts are kept before they start again (a few MB at most). */
const MAX_KEYS_COUNTED = 100_000;

function keyedWrites(): KeyedWrites & { bump: (key: unknown) => void; restart: () => void } {
  const w = {
    byKey: new Map<number, number>(),
    generation: 0,
    bump(key: unknown) {
      if (typeof key !== 'number') return;
      if (w.byKey.size >= MAX_KEYS_COUNTED && !w.byKey.has(key)) w.restart();
      w.byKey.set(key, (w.byKey.get(key) ?? 0) + 1);
    },
    restart() {
      w.byKey.clear();
      w.generation++;
    },
  };
  return w;
}

type TaskWrites = Record<'checklistTasks' | 'taskRows', ReturnType<typeof keyedWrites>>;

/** The columns of `tasks` each per-row count covers: a memo kept per row may declare reading these. */
export const KEYED_COLUMNS: Readonly<Record<keyof TaskWrites, readonly string[]>> = { taskRows: TASK_ROW_COLUMNS, checklistTasks: STATE_COLUMNS };

const counts = onConnection<Int32Array>('tableCounts');
const taskWrites = onConnection<TaskWrites>('taskWrites');

/** Creates the counts and their triggers on a connection (store/open.ts, at open). */
export function installWatches(db: Db): void {
  const written = new Int32Array(COUNTED.length);
  // Not deterministic: SQLite calls it once per row the trigger fires for.
  db.function('wfe_rows_written', { deterministic: false }, (mask: unknown) => {
    for (let i = 0; i < written.length; i++) if (((mask as number) >> i) & 1) written[i]++;
    return null;
  });
  const tasks: TaskWrites = { checklistTasks: keyedWrites(), taskRows: keyedWrites() };
  db.function('wfe_tasks_written', { deterministic: false }, (oldId: unknown, newId: unknown, oldChecklist: unknown, newChecklist: unknown, stateChanged: unknown) => {
    tasks.taskRows.bump(oldId);
    if (newId !== oldId) tasks.taskRows.bump(newId);
    if (!stateChanged) return null;
    tasks.checklistTasks.bump(oldChecklist);
    if (newChecklist !== oldChecklist) tasks.checklistTasks.bump(newChecklist);
    return null;
  });
  for (const t of ALL_TRIGGERS) db.exec(t.sql);
  counts.set(db, written);
  taskWrites.set(db, tasks);
}

/**
 * The connection's counts of rows written per key, when it keeps them (opened by openDb):
 * `checklistTasks` by checklist id (a change to what its tasks are), `taskRows` by task id.
 */
export const keyedTaskWrites = (db: Db, which: keyof TaskWrites): KeyedWrites | undefined => taskWrites.get(db)?.[which];

/** The connection's per-table counts (rows written, indexed as COUNTED), when it keeps them (opened by openDb). */
export const tableCounts = (db: Db): Readonly<Int32Array> | undefined => counts.get(db);

/**
 * Runs a bulk write with the counting triggers set aside, then puts them back, moves every
 * table's count and starts the per-row counts again (a new generation). A trigger makes each
 * single-row INSERT journal the pages it touches for the statement (SQLite's statement journal),
 * which doubled the time to write a generated workspace; what `fn` wrote is then covered by the
 * counts moving once.
 */
export function uncounted<T>(db: Db, fn: () => T): T {
  const written = counts.get(db);
  if (!written) return fn();
  for (const t of ALL_TRIGGERS) db.exec(`DROP TRIGGER temp.${t.name}`);
  try {
    return fn();
  } finally {
    for (const t of ALL_TRIGGERS) db.exec(t.sql);
    for (let i = 0; i < written.length; i++) written[i]++;
    const tasks = taskWrites.get(db)!;
    tasks.checklistTasks.restart();
    tasks.taskRows.restart();
  }
}
