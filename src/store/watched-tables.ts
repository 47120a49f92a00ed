// Per-family change signals: for each family of tables some remembered values read, a count of
// the rows this connection wrote to them, kept by temporary triggers in one row of
// temp.rows_written (a column per family). A value that reads only a family's tables is
// remembered until that family's count moves (store/versioned.ts, Versioned.watching), so
// completing a task leaves the parsed template documents, the access facts and the resolved
// API keys standing.
// The counts live in the connection's temp schema and are rolled back with the rows they
// counted; the rollback count (store/change-signal.ts) drops what was computed in between.
// Commits by another connection are seen through PRAGMA data_version, as for every remembered
// value. The triggers are created when openDb opens the connection, outside any transaction (a
// trigger created inside one would vanish with its rollback); a connection opened otherwise has
// none, and its values fall back to the whole-connection count, total_changes().
import type Database from 'better-sqlite3';

type Db = Database.Database;

/** A table of a family: every insert and delete counts, and updates of `columns` (all columns when absent). */
export interface Watched {
  table: string;
  columns?: readonly string[];
}

// Each family lists every table its readers read (the readers named beside it). A reader that
// starts reading another table adds it here, or the value it remembers can go stale.
export const FAMILIES = {
  /** domain/auth.ts KeyResolver (rows/keys.ts keyResolutionStatements): keys, their workspaces and members. */
  keys: [{ table: 'api_keys' }, { table: 'workspaces' }, { table: 'members' }],
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
  /** rows/checklists.ts checklistByKey (domain/checklist-lookup.ts findChecklist): a checklist's row. */
  checklists: [{ table: 'checklists' }],
  /** rows/webhooks.ts activeWebhooksFor: a workspace's active subscriptions. */
  webhooks: [{ table: 'webhooks' }],
} as const satisfies Record<string, readonly Watched[]>;

export type Family = keyof typeof FAMILIES;

const installed = new WeakSet<Db>();

/** Creates the counts and their triggers on a connection (store/open.ts, at open). */
export function installWatches(db: Db): void {
  const families = Object.keys(FAMILIES) as Family[];
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS rows_written (${families.map((f) => `${f} INTEGER NOT NULL DEFAULT 0`).join(', ')})`);
  db.exec('INSERT INTO temp.rows_written DEFAULT VALUES');
  for (const family of families) {
    for (const w of FAMILIES[family] as readonly Watched[]) {
      const events: [string, string][] = [
        ['insert', 'INSERT'],
        ['delete', 'DELETE'],
        ['update', w.columns ? `UPDATE OF ${w.columns.join(', ')}` : 'UPDATE'],
      ];
      for (const [name, event] of events) {
        db.exec(`CREATE TEMP TRIGGER rows_written_${family}_${w.table}_${name} AFTER ${event} ON main.${w.table} BEGIN UPDATE temp.rows_written SET ${family} = ${family} + 1; END`);
      }
    }
  }
  installed.add(db);
}

/** Whether the connection keeps the family counts (opened by openDb). */
export const watches = (db: Db): boolean => installed.has(db);
