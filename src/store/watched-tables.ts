// Per-family change signals: for each family of tables some remembered values read, a count of
// the rows this connection wrote to them, moved by temporary triggers that call back into the
// process (a SQL function, wfe_rows_written). A value that reads only a family's tables is
// remembered until that family's count moves (store/versioned.ts, Versioned.watching), so
// completing a task leaves the parsed template documents, the access facts and the resolved
// API keys standing.
// The counts only grow, like total_changes(): a write rolled back leaves its count moved over
// rows that are as they were, and the rollback count (store/change-signal.ts) drops what was
// computed in between. Commits by another connection are seen through PRAGMA data_version, as
// for every remembered value. The triggers are created when openDb opens the connection, outside
// any transaction (a trigger created inside one would vanish with its rollback); a connection
// opened otherwise has none, and its values fall back to the whole-connection count,
// total_changes().
// Counting in the process, not in a temporary table: a trigger writing a table made every
// watched row written go through a statement journal of the temp database (measured: a
// generated workspace of 5,000 checklists took 2.6 s to write against 1.4 s without).
import type Database from 'better-sqlite3';
import { TASK_ROW_COLUMNS } from './columns';
export { TASK_ROW_COLUMNS };

type Db = Database.Database;

/** A table of a family: every insert and delete counts, and updates of `columns` (all columns when absent). */
export interface Watched {
  table: string;
  columns?: readonly string[];
}

// Each family lists every table its readers read (the readers named beside it). A reader that
// starts reading another table adds it here, or the value it remembers can go stale.
export const FAMILIES = {
  /**
   * domain/auth.ts KeyResolver (rows/keys.ts keyResolutionStatements): keys, their workspaces and
   * members; domain/tasks/views.ts presentUser: a member's row.
   */
  keys: [{ table: 'api_keys' }, { table: 'workspaces' }, { table: 'members' }],
  /** rows/template-document.ts versionDocument: a version's document. */
  templateVersions: [{ table: 'template_versions' }],
  /**
   * rows/checklist-access.ts assignedOnChecklist and templateRulesNaming, rows/task-assignees.ts
   * memberIdsAssignedTo, domain/tasks/views.ts assigneesOf (a task's assignment rows),
   * domain/webhooks/matching.ts taskFacts (a task's key and checklist; keys never change): who is
   * assigned what, the template rules and the groups they name, and which checklist a task is on
   * (a task's status is not read).
   */
  access: [{ table: 'template_permissions' }, { table: 'group_members' }, { table: 'task_assignees' }, { table: 'tasks', columns: ['id', 'checklist_id', 'attached_checklist_id'] }],
  /**
   * rows/field-values.ts fieldValuesOfChecklist and rows/files.ts fieldFileNamesOfChecklist, and
   * domain/tasks/views.ts storedAnswers (a task's answer rows): a checklist's answers, and which
   * checklist a task is on.
   */
  answers: [{ table: 'field_values' }, { table: 'files' }, { table: 'tasks', columns: ['id', 'checklist_id'] }],
  /**
   * rows/checklists.ts checklistByKey (domain/checklist-lookup.ts findChecklist) and
   * checklistRunById (the status refresh): a checklist's row; domain/webhooks/matching.ts: a
   * checklist's template key (templates are never deleted and keys never change, so only the
   * checklist's row matters).
   */
  checklists: [{ table: 'checklists' }],
  /** rows/webhooks.ts activeWebhooksFor: a workspace's active subscriptions. */
  webhooks: [{ table: 'webhooks' }],
  /** domain/tasks/views.ts commentsOf: a task's comment rows. */
  comments: [{ table: 'comments' }],
} as const satisfies Record<string, readonly Watched[]>;

export type Family = keyof typeof FAMILIES;

const FAMILY_NAMES = Object.keys(FAMILIES) as Family[];

/**
 * Every trigger: one per table and event, moving each family that watches it (a bit mask: one
 * call per row written, whatever the number of families). An update counts for a family when
 * it sets one of the columns any family watches on that table (more often than needed, never less).
 */
const TRIGGERS = (() => {
  const tables = new Map<string, { mask: number; columns: Set<string> | undefined }>();
  FAMILY_NAMES.forEach((family, index) => {
    for (const w of FAMILIES[family] as readonly Watched[]) {
      const t = tables.get(w.table) ?? { mask: 0, columns: new Set<string>() };
      t.mask |= 1 << index;
      if (!w.columns) t.columns = undefined;
      else if (t.columns) for (const c of w.columns) t.columns.add(c);
      tables.set(w.table, t);
    }
  });
  return [...tables].flatMap(([table, { mask, columns }]) =>
    (
      [
        ['insert', 'INSERT'],
        ['delete', 'DELETE'],
        ['update', columns ? `UPDATE OF ${[...columns].join(', ')}` : 'UPDATE'],
      ] as const
    ).map(([event, on]) => {
      const name = `rows_written_${table}_${event}`;
      return { name, sql: `CREATE TEMP TRIGGER ${name} AFTER ${on} ON main.${table} BEGIN SELECT wfe_rows_written(${mask}); END` };
    }),
  );
})();

// Counted per row, not per table: what a checklist's tasks are, in order, with their kinds and
// statuses (rows/tasks.ts taskStatesOfChecklist), per checklist; and each task row, per task. A
// status write to one checklist then leaves what the others' tasks are remembered
// (store/keyed-memo.ts), and its writer can hand over the state it left.
// One trigger per event on tasks calls one function with everything both counts need: the old
// and new row ids and checklists, and whether the row's state (key, kind, status, order,
// checklist) really changed.
const STATE_CHANGED = ['key', 'is_heading', 'is_stop', 'status', 'position', 'checklist_id'].map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ');

// The update trigger watches a task row's columns only (TASK_ROW_COLUMNS, columns.ts): a stop
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

const counts = new WeakMap<Db, Record<Family, number>>();
const taskWrites = new WeakMap<Db, TaskWrites>();

/** Creates the counts and their triggers on a connection (store/open.ts, at open). */
export function installWatches(db: Db): void {
  const written = Object.fromEntries(FAMILY_NAMES.map((f) => [f, 0])) as Record<Family, number>;
  // Not deterministic: SQLite calls it once per row the trigger fires for.
  db.function('wfe_rows_written', { deterministic: false }, (mask: unknown) => {
    for (let i = 0; i < FAMILY_NAMES.length; i++) if (((mask as number) >> i) & 1) written[FAMILY_NAMES[i]]++;
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

/** The connection's family counts (rows written to each family's tables), when it keeps them (opened by openDb). */
export const familyCounts = (db: Db): Readonly<Record<Family, number>> | undefined => counts.get(db);

/**
 * Runs a bulk write with the family triggers set aside, then puts them back, moves every
 * family's count and starts the per-row counts again (a new generation). A trigger makes each
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
    for (const f of FAMILY_NAMES) written[f]++;
    const tasks = taskWrites.get(db)!;
    tasks.checklistTasks.restart();
    tasks.taskRows.restart();
  }
}
