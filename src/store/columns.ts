// A table's columns, declared once (docs/architecture.md "Adding a column"): its row type, its
// SELECT list and its INSERT come from the declaration, and test/columns.test.ts compares every
// declaration with the migrated schema (PRAGMA table_info), so a column added to schema.sql and
// not here (or here and not there) fails a test instead of going silently missing from a finder.
// Plain data beside schema.sql's migrations: imports nothing; the row layer and the store's
// trigger set-up both read it.

type SqlType = 'INTEGER' | 'TEXT' | 'REAL' | 'BLOB';

/**
 * One column: its SQL type, whether it may hold NULL, its schema DEFAULT. `T` is the value's
 * type in a row; `Optional` says an INSERT may leave it out (nullable, defaulted or the key).
 */
export interface Column<T, Optional extends boolean = boolean> {
  readonly type: SqlType;
  readonly nullable: boolean;
  readonly primaryKey: boolean;
  readonly default: string | number | undefined;
  /** Only for the compiler. */
  readonly _row?: T;
  readonly _optional?: Optional;
}

const column = <T, O extends boolean>(type: SqlType, nullable: boolean, dflt?: string | number, primaryKey = false): Column<T, O> => ({ type, nullable, primaryKey, default: dflt });

/** The column constructors a declaration is written in. */
export const col = {
  /** INTEGER PRIMARY KEY: the row id. */
  id: () => column<number, true>('INTEGER', false, undefined, true),
  int: () => column<number, false>('INTEGER', false),
  intDefault: (dflt: number) => column<number, true>('INTEGER', false, dflt),
  intOrNull: () => column<number | null, true>('INTEGER', true),
  text: () => column<string, false>('TEXT', false),
  textDefault: (dflt: string) => column<string, true>('TEXT', false, dflt),
  textOrNull: () => column<string | null, true>('TEXT', true),
  /** A TEXT NOT NULL column whose CHECK allows these values. */
  oneOf: <V extends string>() => column<V, false>('TEXT', false),
  /** A TEXT column whose CHECK allows these values (or NULL). */
  oneOfOrNull: <V extends string>() => column<V | null, true>('TEXT', true),
};

export type Columns = Record<string, Column<unknown>>;

/** A row as SELECTed. */
export type RowOf<D extends Columns> = { -readonly [K in keyof D]: D[K] extends Column<infer V> ? V : never };

type OptionalKeys<D extends Columns> = { [K in keyof D]: D[K] extends Column<unknown, true> ? K : never }[keyof D];

/** What an INSERT takes: every column but the row id, those with a default or NULL optional. */
export type InsertOf<D extends Columns> = Omit<{ [K in Exclude<keyof D, OptionalKeys<D>>]: RowOf<D>[K] } & { [K in OptionalKeys<D>]?: RowOf<D>[K] }, PrimaryKeys<D>>;

type PrimaryKeys<D extends Columns> = { [K in keyof D]: D[K] extends { primaryKey: true } ? K : never }[keyof D] | 'id';

export interface Table<D extends Columns> {
  readonly name: string;
  readonly columns: D;
}

const table = <D extends Columns>(name: string, columns: D): Table<D> => ({ name, columns });

/** The column names of a declaration, in declaration order. */
export const columnNames = <D extends Columns>(t: Table<D>): (keyof D & string)[] => Object.keys(t.columns);

/**
 * The one INSERT of a table: every column but the row id (or the `only` ones), by name
 * (`@column`), and the values for it: what `row` gives, else the schema's default, else NULL.
 */
export function insertOf<D extends Columns, R = InsertOf<D>>(t: Table<D>, only?: readonly (keyof D & string)[]): { sql: string; values: (row: R) => Record<string, unknown> } {
  const names = (only ?? columnNames(t)).filter((n) => !t.columns[n].primaryKey);
  const sql = `INSERT INTO ${t.name} (${names.join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')})`;
  const defaults: Record<string, unknown> = {};
  for (const n of names) defaults[n] = t.columns[n].default ?? null;
  return { sql, values: (row) => ({ ...defaults, ...row }) };
}

// ── declarations (schema.sql) ─────────────────────────────────────────────────

export const tasksTable = table('tasks', {
  id: col.id(),
  key: col.text(),
  workspace_id: col.int(),
  checklist_id: col.intOrNull(),
  attached_checklist_id: col.intOrNull(),
  position: col.intDefault(0),
  name: col.text(),
  description: col.textOrNull(),
  is_heading: col.intDefault(0),
  is_stop: col.intDefault(0),
  status: col.oneOfOrNull<'Incomplete' | 'Complete' | 'NotApplicable'>(),
  completed_at: col.intOrNull(),
  completed_by: col.intOrNull(),
  not_applicable_at: col.intOrNull(),
  not_applicable_by: col.intOrNull(),
  due_at: col.intOrNull(),
  due_is_manual: col.intDefault(0),
  is_assigned_exclusively: col.intDefault(0),
  raised_by: col.intOrNull(),
  created_at: col.int(),
  // The Tasks grid's own flags (schema.sql versions 6 and 7), written by schema triggers and
  // stop visibility: not part of a task row as rows/tasks.ts reads it (TASK_ROW_COLUMNS).
  grid_halted: col.intDefault(0),
  stop_hidden: col.intDefault(0),
});

export const checklistsTable = table('checklists', {
  id: col.id(),
  key: col.text(),
  workspace_id: col.int(),
  template_id: col.int(),
  template_version: col.int(),
  name: col.text(),
  status: col.oneOf<'Scheduled' | 'InProgress' | 'Complete'>(),
  created_by: col.intOrNull(),
  created_at: col.int(),
  scheduled_at: col.intOrNull(),
  started_at: col.intOrNull(),
  completed_at: col.intOrNull(),
  due_at: col.intOrNull(),
  is_archived: col.intDefault(0),
  share_token: col.textOrNull(),
  schedule_id: col.intOrNull(),
  rebuilding: col.intDefault(0),
  /** JSON of the parameters sent at start (schema version 4; docs/upgrades.md). */
  parameters: col.textOrNull(),
});

export const commentsTable = table('comments', {
  id: col.id(),
  task_id: col.int(),
  author_id: col.intOrNull(),
  html: col.textOrNull(),
  text: col.textDefault(''),
  /** JSON array of {type, id, name}. */
  mentions: col.textDefault('[]'),
  file_id: col.intOrNull(),
  created_at: col.int(),
});

export const activityTable = table('activity', {
  id: col.id(),
  workspace_id: col.int(),
  checklist_id: col.intOrNull(),
  task_id: col.intOrNull(),
  member_id: col.intOrNull(),
  action: col.text(),
  text: col.text(),
  /** JSON details, or null. */
  data: col.textOrNull(),
  created_at: col.int(),
});

export const webhooksTable = table('webhooks', {
  id: col.id(),
  /** The subscription id (a GUID). */
  key: col.text(),
  workspace_id: col.int(),
  api: col.oneOf<'v2' | 'v3' | 'emulator'>(),
  /** The legacy `source` label. */
  source: col.textOrNull(),
  event_type: col.text(),
  target_url: col.text(),
  /** Workspace, Template, Task or Field (src/domain/webhooks/events.ts ScopeType). */
  scope_type: col.oneOfOrNull<'Workspace' | 'Template' | 'Task' | 'Field'>(),
  template_key: col.textOrNull(),
  task_key: col.textOrNull(),
  field_key: col.textOrNull(),
  secret: col.textOrNull(),
  is_active: col.intDefault(1),
  created_by: col.intOrNull(),
  created_at: col.int(),
});

/** The outbox (docs/webhooks.md): written in the transaction of the change that caused the event. */
export const eventsTable = table('events', {
  id: col.id(),
  key: col.text(),
  workspace_id: col.int(),
  event_type: col.text(),
  /** JSON: what the body is built from (src/event-subjects.ts). */
  subject: col.textOrNull(),
  actor_id: col.intOrNull(),
  /** The exact payload bytes, built once. */
  body: col.textOrNull(),
  /** pending, built, dropped, unmatched. */
  state: col.textDefault('pending'),
  drop_reason: col.textOrNull(),
  created_at: col.int(),
  processed_at: col.intOrNull(),
});

export const deliveriesTable = table('deliveries', {
  id: col.id(),
  key: col.text(),
  event_id: col.int(),
  webhook_id: col.intOrNull(),
  target_url: col.text(),
  /** pending, delivered, failed, dropped, cancelled. */
  status: col.textDefault('pending'),
  attempts: col.intDefault(0),
  next_attempt_at: col.int(),
  last_status: col.intOrNull(),
  last_error: col.textOrNull(),
  /** The first 2 KB of the last answer's body. */
  last_response: col.textOrNull(),
  /** JSON of the headers sent. */
  headers: col.textOrNull(),
  /** JSON array: {at, status, error, durationMs}. */
  attempt_log: col.textDefault('[]'),
  replay_of: col.intOrNull(),
  created_at: col.int(),
  delivered_at: col.intOrNull(),
});

/** The grid's own columns of `tasks`, which a task row leaves out. */
const GRID_OWN = ['grid_halted', 'stop_hidden'] as const;

/**
 * The columns of a task row as rows/tasks.ts reads and remembers it: every column but the grid's
 * own (store/watched-tables.ts says why its update trigger watches these only).
 */
export const TASK_ROW_COLUMNS = columnNames(tasksTable).filter((c): c is Exclude<typeof c, (typeof GRID_OWN)[number]> => !(GRID_OWN as readonly string[]).includes(c));

/** Every declaration, for the schema test. */
export const declaredTables: readonly Table<Columns>[] = [tasksTable, checklistsTable, commentsTable, activityTable, webhooksTable, eventsTable, deliveriesTable];
