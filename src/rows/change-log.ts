// The change log behind checkpoints (docs/checkpoints.md): which rows of the watched tables
// were inserted, updated or deleted, with the watched columns before and after, as JSON.
// Triggers write it, whoever writes the rows (any transport, the workers, another process
// on the same file), so a diff reads the log since a checkpoint and never a whole table.
// The triggers are made by the first checkpoint of a database and dropped when its data is
// replaced (a reset or an import): a database nobody checkpoints pays nothing for them.
import type { Db } from '../store/open';
import type { RowOf } from '../store/columns';
import type { changeLogTable } from '../store/tables/platform';

/** One watched table: how a row is named, what is kept of it, and which changes are logged. */
export interface Watched {
  table: string;
  /** Primary-key columns: a row's identity. */
  pk: string[];
  /** The JSON kept of a row: name → SQL over the row alias `R`; `{s}` is the schema prefix of lookups. */
  cols: [name: string, sql: string][];
  /** Columns whose change logs an update (none: inserts and deletes only). */
  watch: string[];
  /** Written with INSERT OR REPLACE: the row replaced is logged as deleted first (a REPLACE fires no delete trigger). */
  replaces?: true;
}

const clKey = (clId: string) => `(SELECT key FROM {s}checklists WHERE id = ${clId})`;
const taskCl = (taskId: string) => `(SELECT checklist_id FROM {s}tasks WHERE id = ${taskId})`;
/** The columns naming a task, for the tables that hang off one. */
const ofTask = (taskId: string): [string, string][] => [
  ['task', `(SELECT key FROM {s}tasks WHERE id = ${taskId})`],
  ['_task', taskId],
  ['_cl', taskCl(taskId)],
  ['checklist', clKey(taskCl(taskId))],
];

/** The watched tables, in the order the diff reports their groups. */
export const WATCHED: Watched[] = [
  {
    table: 'checklists',
    pk: ['id'],
    cols: [['key', 'R.key'], ['name', 'R.name'], ['status', 'R.status'], ['archived', 'R.is_archived'], ['dueAt', 'R.due_at'], ['template', '(SELECT key FROM {s}templates WHERE id = R.template_id)'], ['templateVersion', 'R.template_version'], ['createdBy', 'R.created_by'], ['createdAt', 'R.created_at'], ['_cl', 'R.id']],
    watch: ['name', 'status', 'is_archived', 'due_at', 'template_version'],
  },
  {
    table: 'tasks',
    pk: ['id'],
    cols: [['key', 'R.key'], ['_task', 'R.id'], ['_cl', 'R.checklist_id'], ['checklist', clKey('R.checklist_id')], ['name', 'R.name'], ['heading', 'R.is_heading'], ['status', "coalesce(R.status, 'Incomplete')"], ['completedBy', 'R.completed_by'], ['completedAt', 'R.completed_at'], ['notApplicableBy', 'R.not_applicable_by'], ['notApplicableAt', 'R.not_applicable_at'], ['dueAt', 'R.due_at']],
    watch: ['status', 'due_at', 'name'],
  },
  {
    table: 'field_values',
    pk: ['task_id', 'field_key'],
    cols: [...ofTask('R.task_id'), ['field', 'R.field_key'], ['value', 'R.value'], ['by', 'R.updated_by'], ['at', 'R.updated_at']],
    watch: ['value'],
    replaces: true,
  },
  {
    table: 'task_assignees',
    pk: ['task_id', 'assignee_type', 'assignee_id'],
    cols: [...ofTask('R.task_id'), ['type', 'R.assignee_type'], ['id', 'R.assignee_id']],
    watch: [],
  },
  {
    table: 'comments',
    pk: ['id'],
    cols: [...ofTask('R.task_id'), ['id', 'R.id'], ['author', 'R.author_id'], ['text', 'R.text'], ['createdAt', 'R.created_at']],
    watch: [],
  },
  {
    table: 'snoozes',
    pk: ['member_id', 'task_id'],
    cols: [...ofTask('R.task_id'), ['member', 'R.member_id'], ['until', 'R.until_at']],
    watch: ['until_at'],
    replaces: true,
  },
  {
    table: 'tags',
    pk: ['id'],
    cols: [['key', 'R.key'], ['name', 'R.name']],
    watch: ['name'],
  },
  {
    table: 'tag_assignments',
    pk: ['id'],
    cols: [
      ['tag', '(SELECT name FROM {s}tags WHERE id = R.tag_id)'],
      ['targetType', 'R.target_type'],
      ['target', "CASE R.target_type WHEN 'checklist' THEN " + clKey('R.target_id') + " WHEN 'task' THEN (SELECT key FROM {s}tasks WHERE id = R.target_id) ELSE (SELECT key FROM {s}templates WHERE id = R.target_id) END"],
      ['_cl', "CASE R.target_type WHEN 'checklist' THEN R.target_id WHEN 'task' THEN " + taskCl('R.target_id') + ' END'],
      ['checklist', "CASE R.target_type WHEN 'task' THEN " + clKey(taskCl('R.target_id')) + ' END'],
    ],
    watch: [],
  },
  {
    table: 'templates',
    pk: ['id'],
    cols: [['key', 'R.key'], ['name', '(SELECT name FROM {s}template_versions WHERE template_id = R.id AND version = R.latest_version)'], ['archived', 'R.is_archived'], ['latestVersion', 'R.latest_version']],
    watch: ['is_archived', 'latest_version'],
  },
  {
    table: 'template_versions',
    pk: ['template_id', 'version'],
    cols: [['template', '(SELECT key FROM {s}templates WHERE id = R.template_id)'], ['version', 'R.version'], ['name', 'R.name'], ['by', 'R.created_by'], ['at', 'R.created_at']],
    watch: [],
  },
  {
    table: 'data_sets',
    pk: ['id'],
    cols: [['key', 'R.key'], ['name', 'R.name']],
    watch: ['name'],
  },
  {
    table: 'data_set_records',
    pk: ['id'],
    cols: [['key', 'R.key'], ['dataSet', '(SELECT key FROM {s}data_sets WHERE id = R.data_set_id)'], ['dataSetName', '(SELECT name FROM {s}data_sets WHERE id = R.data_set_id)'], ['values', 'R.vals']],
    watch: ['vals'],
  },
  {
    table: 'schedules',
    pk: ['id'],
    cols: [['id', 'R.id'], ['name', 'R.name'], ['template', '(SELECT key FROM {s}templates WHERE id = R.template_id)'], ['timeZone', 'R.time_zone'], ['start', 'R.start_local'], ['recurrence', 'R.data'], ['by', 'R.created_by']],
    watch: ['name', 'data', 'time_zone', 'start_local'],
  },
  {
    table: 'webhooks',
    pk: ['id'],
    cols: [['id', 'R.key'], ['api', 'R.api'], ['eventType', 'R.event_type'], ['targetUrl', 'R.target_url'], ['active', 'R.is_active'], ['template', 'R.template_key'], ['task', 'R.task_key'], ['field', 'R.field_key']],
    watch: ['is_active', 'target_url', 'event_type'],
  },
];

/** The SQL naming a row (its primary key as text) over the alias R. */
export const rowIdSql = (w: Watched, alias = 'R'): string => w.pk.map((c) => `${alias}.${c}`).join(` || '/' || `);

/** The JSON object SQL of a row over `alias`, lookups in `schema` ('' inside a trigger). */
export function rowJsonSql(w: Watched, alias: string, schema: string): string {
  const fields = w.cols.map(([name, sql]) => `'${name}', ${sql.replace(/\bR\./g, `${alias}.`).replace(/\{s\}/g, schema)}`);
  return `json_object(${fields.join(', ')})`;
}

const triggerName = (w: Watched, op: string) => `wfe_log_${w.table}_${op}`;

/** The CREATE TRIGGER statements of one table. */
function triggersOf(w: Watched): string[] {
  const log = (op: string, id: string, oldJson: string, newJson: string) => `INSERT INTO change_log (tbl, op, row, old, new) VALUES ('${w.table}', '${op}', ${id}, ${oldJson}, ${newJson})`;
  const out = [
    `CREATE TRIGGER IF NOT EXISTS ${triggerName(w, 'i')} AFTER INSERT ON ${w.table} BEGIN ${log('I', rowIdSql(w, 'NEW'), 'NULL', rowJsonSql(w, 'NEW', ''))}; END`,
    `CREATE TRIGGER IF NOT EXISTS ${triggerName(w, 'd')} AFTER DELETE ON ${w.table} BEGIN ${log('D', rowIdSql(w, 'OLD'), rowJsonSql(w, 'OLD', ''), 'NULL')}; END`,
  ];
  if (w.watch.length) {
    const changed = w.watch.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ');
    out.push(
      `CREATE TRIGGER IF NOT EXISTS ${triggerName(w, 'u')} AFTER UPDATE OF ${w.watch.join(', ')} ON ${w.table} WHEN ${changed} BEGIN ${log('U', rowIdSql(w, 'NEW'), rowJsonSql(w, 'OLD', ''), rowJsonSql(w, 'NEW', ''))}; END`,
    );
  }
  if (w.replaces) {
    const match = w.pk.map((c) => `R.${c} = NEW.${c}`).join(' AND ');
    out.push(
      `CREATE TRIGGER IF NOT EXISTS ${triggerName(w, 'r')} BEFORE INSERT ON ${w.table} BEGIN INSERT INTO change_log (tbl, op, row, old, new) SELECT '${w.table}', 'D', ${rowIdSql(w)}, ${rowJsonSql(w, 'R', '')}, NULL FROM ${w.table} R WHERE ${match}; END`,
    );
  }
  return out;
}

const ALL_TRIGGERS = WATCHED.flatMap((w) => ['i', 'd', ...(w.watch.length ? ['u'] : []), ...(w.replaces ? ['r'] : [])].map((op) => triggerName(w, op)));

/** Whether the log's triggers are in this database's schema (in `schema`). */
export function isLogging(db: Db, schema = 'main'): boolean {
  return db.prepare(`SELECT 1 AS x FROM ${schema}.sqlite_master WHERE type = 'trigger' AND name = ?`).get(ALL_TRIGGERS[0]) !== undefined;
}

/** Starts logging (the first checkpoint): the triggers, and a new lineage naming this run of the log. */
export function startLogging(db: Db, lineage: string): void {
  if (isLogging(db)) return;
  for (const sql of WATCHED.flatMap(triggersOf)) db.exec(sql);
  db.prepare('DELETE FROM change_log_state').run();
  db.prepare('INSERT INTO change_log_state (lineage) VALUES (?)').run(lineage);
}

/** Stops logging and forgets the log (the data is being replaced: nothing before compares with it). */
export function stopLogging(db: Db): void {
  if (isLogging(db)) for (const name of ALL_TRIGGERS) db.exec(`DROP TRIGGER IF EXISTS ${name}`);
}

/** The log's last id (0 when empty), in `schema`. */
export const lastChangeId = (db: Db, schema = 'main'): number =>
  (db.prepare(`SELECT coalesce(max(id), 0) AS n FROM ${schema}.change_log`).get() as { n: number }).n;

/** The lineage of the log in `schema`, when logging has started there. */
export const logLineage = (db: Db, schema = 'main'): string | undefined =>
  (db.prepare(`SELECT lineage FROM ${schema}.change_log_state LIMIT 1`).get() as { lineage: string } | undefined)?.lineage;

/** A change log row as stored (store/tables/platform.ts). */
export type ChangeRow = RowOf<typeof changeLogTable.columns>;

/** The log after `id`, oldest first (an index range: the rows since, never the table). */
export const changesSince = (db: Db, id: number, schema = 'main'): ChangeRow[] =>
  db.prepare(`SELECT id, tbl, op, row, old, new FROM ${schema}.change_log WHERE id > ? ORDER BY id`).all(id) as ChangeRow[];

/** Empties the log (a replace: the rows it describes are gone). */
export function clearLog(db: Db): void {
  db.prepare('DELETE FROM change_log').run();
  db.prepare('DELETE FROM change_log_state').run();
}

/**
 * The rows of a watched table that differ between `before` and `after` (two schemas of one
 * connection), as log rows with id 0: what `wfe diff` reads when the two files share no log.
 * Compared on the primary key and the watched columns, as the triggers log them; only the rows
 * that differ are made JSON.
 */
export function tableDifference(db: Db, w: Watched, before: string, after: string): ChangeRow[] {
  const raw = [...w.pk, ...w.watch].join(', ');
  const pk = w.pk.join(', ');
  const differing = (a: string, b: string) => `SELECT ${rowIdSql(w)} AS row, ${rowJsonSql(w, 'R', `${a}.`)} AS j FROM ${a}.${w.table} R WHERE (${w.pk.map((c) => `R.${c}`).join(', ')}) IN (SELECT ${pk} FROM (SELECT ${raw} FROM ${a}.${w.table} EXCEPT SELECT ${raw} FROM ${b}.${w.table}))`;
  const gone = new Map((db.prepare(differing(before, after)).all() as { row: string; j: string }[]).map((r) => [String(r.row), r.j]));
  const came = new Map((db.prepare(differing(after, before)).all() as { row: string; j: string }[]).map((r) => [String(r.row), r.j]));
  const out: ChangeRow[] = [];
  for (const [row, j] of gone) out.push(came.has(row) ? { id: 0, tbl: w.table, op: 'U', row, old: j, new: came.get(row)! } : { id: 0, tbl: w.table, op: 'D', row, old: j, new: null });
  for (const [row, j] of came) if (!gone.has(row)) out.push({ id: 0, tbl: w.table, op: 'I', row, old: null, new: j });
  return out;
}
