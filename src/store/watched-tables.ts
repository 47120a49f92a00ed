// Per-family change signals: for each family of tables some remembered values read, a counter of
// the rows this connection wrote to them, kept by temporary triggers (as rows/keys.ts keeps one
// for keys, members and workspaces). A value that reads only a family's tables is remembered
// until that family's counter moves (store/versioned.ts, Versioned.watching), so completing a
// task leaves the parsed template documents and the access facts standing.
// A counter lives in the connection's temp schema and is rolled back with the rows it counted;
// the rollback count (store/change-signal.ts) drops what was computed in between. Commits by
// another connection are seen through PRAGMA data_version, as for every remembered value.
// The families are installed when openDb opens the connection, outside any transaction (a
// trigger created inside one would vanish with its rollback); a connection opened otherwise
// has none, and its values fall back to the whole-connection signal.
import type Database from 'better-sqlite3';

type Db = Database.Database;

/** A table of a family: every insert and delete counts, and updates of `columns` (all columns when absent). */
export interface Watched {
  table: string;
  columns?: readonly string[];
}

// Each family lists every table its readers read (the reader named beside it). A reader that
// starts reading another table adds it here, or the value it remembers can go stale.
export const FAMILIES = {
  /** rows/template-document.ts versionDocument: a version's document. */
  templateVersions: [{ table: 'template_versions' }],
  /**
   * rows/checklist-access.ts assignedOnChecklist and templateRulesNaming, rows/task-assignees.ts
   * memberIdsAssignedTo: who is assigned what, the template rules and the groups they name,
   * and which checklist a task is on (a task's status is not read).
   */
  access: [{ table: 'template_permissions' }, { table: 'group_members' }, { table: 'task_assignees' }, { table: 'tasks', columns: ['id', 'checklist_id', 'attached_checklist_id'] }],
  /**
   * rows/field-values.ts fieldValuesOfChecklist and rows/files.ts fieldFileNamesOfChecklist: a
   * checklist's answers, and which checklist a task is on.
   */
  answers: [{ table: 'field_values' }, { table: 'files' }, { table: 'tasks', columns: ['id', 'checklist_id'] }],
} as const satisfies Record<string, readonly Watched[]>;

export type Family = keyof typeof FAMILIES;

const installed = new WeakMap<Db, Set<Family>>();

const counterOf = (family: Family) => `rows_written_${family}`;

/** Creates every family's counter and triggers on a connection (store/open.ts, at open). */
export function installWatches(db: Db): void {
  const done = new Set<Family>();
  for (const family of Object.keys(FAMILIES) as Family[]) {
    const counter = counterOf(family);
    db.exec(`CREATE TEMP TABLE IF NOT EXISTS ${counter} (n INTEGER NOT NULL)`);
    db.exec(`INSERT INTO temp.${counter} (n) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM temp.${counter})`);
    for (const w of FAMILIES[family] as readonly Watched[]) {
      const events: [string, string][] = [
        ['insert', 'INSERT'],
        ['delete', 'DELETE'],
        ['update', w.columns ? `UPDATE OF ${w.columns.join(', ')}` : 'UPDATE'],
      ];
      for (const [name, event] of events) {
        db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS ${counter}_${w.table}_${name} AFTER ${event} ON main.${w.table} BEGIN UPDATE temp.${counter} SET n = n + 1; END`);
      }
    }
    done.add(family);
  }
  installed.set(db, done);
}

/**
 * The SQL of a family's counter on this connection, as a scalar expression; undefined when the
 * connection has no counters (not opened by openDb).
 */
export function counterSql(db: Db, family: Family): string | undefined {
  return installed.get(db)?.has(family) ? `(SELECT n FROM temp.${counterOf(family)})` : undefined;
}
